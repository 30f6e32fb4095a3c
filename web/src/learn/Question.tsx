// A question with an explanation for every answer, right or wrong. A numeric answer may be read
// from the live state (the lesson says which value), so it is true on every engine.
import { useId, useState } from 'react';
import type { Question as QuestionSpec } from '@replicant/lessons/runtime';
import type { FillContext } from '@replicant/lessons/runtime';
import { Inline } from './LessonText.tsx';

/** Right or not, and why: the same for a chosen option and a typed number. */
function Verdict({ correct, text, ctx }: { correct: boolean; text: string; ctx: FillContext }) {
  return (
    <p role="status" className={correct ? 'answer right' : 'answer wrong'} data-testid="answer-explanation" data-correct={correct}>
      {correct ? 'Right. ' : 'Not quite. '}
      <Inline text={text} ctx={ctx} />
    </p>
  );
}

export function Question({ question, ctx, answer, onRight }: { question: QuestionSpec; ctx: FillContext; answer: number | null; onRight: () => void }) {
  const [picked, setPicked] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [checked, setChecked] = useState<{ correct: boolean; text: string } | null>(null);
  const id = useId();

  if (question.kind === 'choice') {
    const chosen = picked === null ? null : question.options[picked]!;
    return (
      <section className="question" aria-labelledby={`${id}-q`} data-testid="question">
        <h3 id={`${id}-q`}>
          <Inline text={question.prompt} ctx={ctx} />
        </h3>
        <div role="group" aria-labelledby={`${id}-q`} className="options">
          {question.options.map((o, i) => (
            <button
              key={i}
              type="button"
              aria-pressed={picked === i}
              data-testid="answer-option"
              data-correct={o.correct}
              onClick={() => {
                setPicked(i);
                if (o.correct) onRight();
              }}
            >
              <Inline text={o.text} ctx={ctx} />
            </button>
          ))}
        </div>
        {chosen && <Verdict correct={chosen.correct} text={chosen.why} ctx={ctx} />}
      </section>
    );
  }

  const check = () => {
    const v = Number(typed.trim());
    if (typed.trim() === '' || !Number.isFinite(v)) {
      setChecked({ correct: false, text: 'Type a number first (digits, a decimal point allowed).' });
      return;
    }
    if (answer === null) {
      setChecked({ correct: false, text: 'The answer is read from the live state, which is not ready yet.' });
      return;
    }
    const correct = Math.abs(v - answer) <= (question.tolerance ?? 0);
    if (correct) onRight();
    setChecked({ correct, text: correct ? question.why_right : `${question.why_wrong} (The answer is ${answer}${question.unit ? ` ${question.unit}` : ''}.)` });
  };
  return (
    <section className="question" aria-labelledby={`${id}-q`} data-testid="question">
      <h3 id={`${id}-q`}>
        <Inline text={question.prompt} ctx={ctx} />
      </h3>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          check();
        }}
      >
        <label className="knob">
          <span>your answer{question.unit ? ` (${question.unit})` : ''}</span>
          <input inputMode="decimal" value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="answer-number" />
        </label>
        <button type="submit" data-testid="answer-check">
          Check
        </button>
      </form>
      {checked && <Verdict correct={checked.correct} text={checked.text} ctx={ctx} />}
    </section>
  );
}
