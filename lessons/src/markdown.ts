// lesson.md: a `# ` title, then one `## ` section per idea. The player shows a step's section;
// nothing else in the file is structure.
import type { LessonSection } from './format.ts';

export interface ParsedMarkdown {
  title: string | null;
  titleLine: number;
  sections: Map<string, LessonSection>;
  duplicates: { heading: string; line: number }[];
}

export function parseLessonMarkdown(text: string): ParsedMarkdown {
  const lines = text.split(/\r?\n/);
  let title: string | null = null;
  let titleLine = 1;
  const sections = new Map<string, LessonSection>();
  const duplicates: { heading: string; line: number }[] = [];
  let current: { heading: string; line: number; body: string[] } | null = null;
  const close = () => {
    if (!current) return;
    if (sections.has(current.heading)) duplicates.push({ heading: current.heading, line: current.line });
    else sections.set(current.heading, { heading: current.heading, line: current.line, body: current.body.join('\n').trimEnd() });
  };
  lines.forEach((l, i) => {
    const h1 = /^# (.+)$/.exec(l);
    const h2 = /^## (.+)$/.exec(l);
    if (h1 && title === null && !current) {
      title = h1[1]!.trim();
      titleLine = i + 1;
    } else if (h2) {
      close();
      current = { heading: h2[1]!.trim(), line: i + 1, body: [] };
    } else if (current) current.body.push(l);
  });
  close();
  return { title, titleLine, sections, duplicates };
}
