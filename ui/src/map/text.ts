// Text as the place searches compare it, apart from the map's data so that a
// form can read it without loading the reference of the map.

/**
 * Text as the search compares it: lower case, no accents, œ/æ spelled out,
 * every run of other characters (hyphens, apostrophes, spaces) one space,
 * and "st"/"ste" read as "saint"/"sainte" (core/places.Normalize has the
 * same rule).
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/gi, 'oe')
    .replace(/æ/gi, 'ae')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\bste\b/g, 'sainte')
    .replace(/\bst\b/g, 'saint')
}
