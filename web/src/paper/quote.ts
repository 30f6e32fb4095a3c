// Quotes are stored exactly as the text extraction has them; people read them cleaned.
/** Undoes the PDF extraction's LaTeX leftovers for display (the data keeps the quote exact). */
export function readableQuote(quote: string): string {
  return quote
    .replace(/\\rightarrow/g, '→')
    .replace(/\\times/g, '×')
    .replace(/C_\{\+\+\}/g, 'C++')
    .replace(/\$/g, '');
}
