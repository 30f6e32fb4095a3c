// Lesson prose: paragraphs and "- " lists with **bold**, *emphasis*, `code` and live
// placeholders. A value read from the engine is marked as such; a paper figure carries its
// place in the paper and its quote; a computed one says it is computed.
import { Fragment, memo, type ReactNode } from 'react';
import { fill, type Segment } from '@replicant/lessons/runtime';
import type { FillContext } from '@replicant/lessons/runtime';

const TOKEN = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|\{\{[^}]+\}\})/;

function segment(s: Segment, key: number): ReactNode {
  switch (s.kind) {
    case 'text':
      return <Fragment key={key}>{s.text}</Fragment>;
    case 'live':
      return (
        <span key={key} className="live-value" data-expr={s.expr} title="read live from the engine">
          {s.text}
        </span>
      );
    case 'paper':
      return (
        <span key={key} className="paper-value" data-paper-id={s.id}>
          {s.text}{' '}
          <span className="paper-source">
            (paper, {s.where}: “{s.quote}”)
          </span>
        </span>
      );
    case 'model':
      return (
        <span key={key} className="model-value" data-metric={s.metric} title="computed in your browser from the paper's example">
          {s.text} (computed)
        </span>
      );
    case 'sim':
      return (
        <span key={key} className="model-value" data-sim-metric={s.metric} title="read from your simulator run">
          {s.text}
          {s.model_card_version !== null && ` (simulated, model card ${s.model_card_version})`}
        </span>
      );
    case 'cost':
      return (
        <span key={key} className="model-value" data-cost-metric={s.metric} title="the cost model's answer (cost-model/, in your browser)">
          {s.text}
          {s.model !== null && ` (computed by the cost model, ${s.model})`}
        </span>
      );
  }
}

export function Inline({ text, ctx }: { text: string; ctx: FillContext }): ReactNode {
  return text.split(TOKEN).map((part, i) => {
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return <strong key={i}>{Inline({ text: part.slice(2, -2), ctx })}</strong>;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) return <code key={i}>{part.slice(1, -1)}</code>;
    if (part.startsWith('{{')) return <Fragment key={i}>{fill(part, ctx).map(segment)}</Fragment>;
    if (part.startsWith('*') && part.endsWith('*') && part.length > 2) return <em key={i}>{Inline({ text: part.slice(1, -1), ctx })}</em>;
    return <Fragment key={i}>{part}</Fragment>;
  });
}

// Memoised: the view redraws for loading notes and checkpoints, the text only when its body or values change.
export const LessonText = memo(function LessonText({ body, ctx }: { body: string; ctx: FillContext }) {
  const blocks = body.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return (
    <div className="lesson-text" data-testid="lesson-text">
      {blocks.map((b, i) => {
        const lines = b.split('\n');
        if (lines.every((l) => l.startsWith('- '))) {
          return (
            <ul key={i}>
              {lines.map((l, k) => (
                <li key={k}>
                  <Inline text={l.slice(2)} ctx={ctx} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={i}>
            <Inline text={lines.join(' ')} ctx={ctx} />
          </p>
        );
      })}
    </div>
  );
});
