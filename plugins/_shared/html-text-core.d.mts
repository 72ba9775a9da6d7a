type ParseHTML = (html: string) => { document: Document };
export function htmlToTextWith(parseHTML: ParseHTML, html: string): string;
export function tidyText(text: string): string;
