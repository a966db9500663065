// French names in sentences, the interface's copy of core/grammar (both
// tested with core/grammar/testdata's tables): "de", "le", "la" and "que"
// elide before a vowel or a mute "h" ("d'Annecy", "l'abricot",
// "qu'Orléans"), never before an aspirated "h" ("de haricots", "de
// Haute-Savoie"); "de" and "à" contract with a name's article ("du Panier
// des Aravis", "aux Jardins d'Alby").

/**
 * The beginnings of words whose "h" is aspirated: the spelling cannot tell
 * them from a mute "h" ("d'Hyères", "l'huile"), so they are listed — the
 * catalogue's products and the words common in shop, farm and place names.
 * The same list as core/grammar's.
 */
const ASPIRATED = [
  'hachis',
  'haie',
  'halle',
  'hameau',
  'hamburger',
  'hangar',
  'hareng',
  'haricot',
  'harpe',
  'hâte',
  'haut',
  'havre',
  'hérisson',
  'héron',
  'hêtre',
  'hibou',
  'hollande',
  'homard',
  'hongrie',
  'houblon',
  'houx',
  'huit',
  'hutte',
]

/** Whether a word like "de" or "que" before `text` loses its vowel. */
export function elides(text: string): boolean {
  const first = text.charAt(0).toLowerCase()
  if (!'aeiouyhàâäéèêëîïôöûüœæ'.includes(first) || first === '') return false
  if (first !== 'h') return true
  const lower = text.toLowerCase()
  return !ASPIRATED.some((w) => lower.startsWith(w))
}

const ELIDING = new Set(['de', 'le', 'la', 'que', 'jusque', 'ne', 'je', 'me', 'te', 'se', 'ce'])

/** `word` ("de", "le", "la", "que"…) then `text`, elided where French elides: elide('que', 'Annecy') is "qu'Annecy". */
export function elide(word: string, text: string): string {
  return ELIDING.has(word.toLowerCase()) && elides(text) ? `${word.slice(0, -1)}'${text}` : `${word} ${text}`
}

/** "de Tomate", "d'Abricot", "d'Annecy", "du Panier des Aravis", "des Jardins d'Alby", "du Havre". */
export function de(name: string): string {
  if (/^Le /.test(name)) return `du ${name.slice(3)}`
  if (/^Les /.test(name)) return `des ${name.slice(4)}`
  return elide('de', name)
}

/** "à Épicerie du Lac", "au Panier des Aravis", "aux Jardins d'Alby". */
export function to(name: string): string {
  if (/^Le /.test(name)) return `au ${name.slice(3)}`
  if (/^Les /.test(name)) return `aux ${name.slice(4)}`
  return `à ${name}`
}
