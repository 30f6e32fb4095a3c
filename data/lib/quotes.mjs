// Checks that a quote occurs in the paper text, forgiving the artefacts of the PDF-to-text
// extraction: whitespace lost or added between words, markdown links around figure names,
// and LaTeX fragments such as C_{++}, \times, \rightarrow and $...$.
const LATEX = [
  ['C_{++}', 'C++'],
  ['\\times', '×'],
  ['\\rightarrow', '→'],
  ['\\approx', '≈'],
  ['$', ''],
];

export function normaliseForQuote(text) {
  let s = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  for (const [from, to] of LATEX) s = s.split(from).join(to);
  return s.replace(/\s+/g, '').toLowerCase();
}

export function quoteChecker(paperText) {
  const haystack = normaliseForQuote(paperText);
  return (quote) => quote.trim() !== '' && haystack.includes(normaliseForQuote(quote));
}
