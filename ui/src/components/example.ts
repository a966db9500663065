// Placeholders that read as examples, not as values (issue 37: "06 12 34
// 56 78" in an empty field looked filled in): the text says "ex. : …" and
// placeholder.css sets every field's placeholder in italics. Its colour is
// the theme's placeholder grey (5.16:1 on white, theme.ts), kept for the
// contrast that WCAG 1.4.3 asks of it.
import './placeholder.css'

/** "ex. : 74000": the placeholder of a field, told as an example. */
export function example(text: string): string {
  return `ex. : ${text}`
}
