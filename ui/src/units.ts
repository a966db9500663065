/**
 * The units of need (core/catalog's units.go, the same table): what a shop plans, a producer proposes and
 * delivers, and an invoice bills in. `isWholeUnit` is THE rule of quantities in the interface: a unit
 * counted in whole units (pièce, douzaine, botte, barquette, bouteille, pot) takes whole quantities, a
 * measured one (kg, litre) two decimals. A new unit is one line here and one in units.go.
 */

export interface UnitInfo {
  /** Follows a quantity ("12,5 kg", "3 L"); empty for a counted unit, which says its name. */
  symbol: string
  singular: string
  plural: string
  whole: boolean
}

export const UNITS: Record<string, UnitInfo> = {
  kg: { symbol: 'kg', singular: 'kilogramme', plural: 'kilogrammes', whole: false },
  l: { symbol: 'L', singular: 'litre', plural: 'litres', whole: false },
  un: { symbol: '', singular: 'pièce', plural: 'pièces', whole: true },
  douzaine: { symbol: '', singular: 'douzaine', plural: 'douzaines', whole: true },
  botte: { symbol: '', singular: 'botte', plural: 'bottes', whole: true },
  barquette: { symbol: '', singular: 'barquette', plural: 'barquettes', whole: true },
  bouteille: { symbol: '', singular: 'bouteille', plural: 'bouteilles', whole: true },
  pot: { symbol: '', singular: 'pot', plural: 'pots', whole: true },
}

/** Whether quantities of this unit are whole numbers (an unknown unit is measured, as in core/catalog). */
export function isWholeUnit(unit: string | undefined): boolean {
  return unit !== undefined && UNITS[unit]?.whole === true
}

/** The decimals a quantity of this unit shows: 0 for a counted unit, 2 for a measured one. */
export function unitDigits(unit: string | undefined): number {
  return isWholeUnit(unit) ? 0 : 2
}

/** A unit after a price or in a column: "kg", "L", "pièce", "douzaine". */
export function unitLabel(unit: string | undefined): string {
  const u = unit === undefined ? undefined : UNITS[unit]
  if (!u) return unit || 'kg'
  return u.symbol || u.singular
}

/** A unit after a count: "kg", "L", "pièce" (1) or "pièces" (2 and more). */
export function unitAfter(value: number, unit: string | undefined): string {
  const u = unit === undefined ? undefined : UNITS[unit]
  if (!u) return unit || 'kg'
  if (u.symbol) return u.symbol
  return Math.abs(value) >= 2 ? u.plural : u.singular
}

/** What a quantity field of this unit is labelled: "kg", "litres", "pièces", "douzaines". */
export function unitFieldName(unit: string | undefined): string {
  const u = unit === undefined ? undefined : UNITS[unit]
  if (!u) return unit || 'kg'
  return u.symbol === 'kg' ? 'kg' : u.plural
}
