// Contrast of colours as WCAG 2.1 defines it (relative luminance of sRGB,
// ratio (L1 + 0.05) / (L2 + 0.05)), and the darkening of a colour until it
// reaches a ratio: the theme (theme.ts) derives its accessible palettes with
// them, and its unit test checks the pairs the interface draws.

/** The red, green and blue of "#rrggbb" (or "#rgb"), 0–255. */
export function parseHex(hex: string): [number, number, number] {
  let h = hex.replace('#', '')
  if (h.length === 3) h = [...h].map((c) => c + c).join('')
  if (!/^[0-9a-fA-F]{6}$/.test(h)) throw new Error(`not a hex colour: ${hex}`)
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number]
}

/** "#rrggbb" of three channels, each rounded and kept in 0–255. */
export function toHex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/**
 * `hex` darkened (each channel scaled toward black, which keeps its hue)
 * just enough to reach `ratio` against every colour of `against`; `hex`
 * itself when it already does.
 */
export function darkenTo(hex: string, ratio: number, against: readonly string[]): string {
  const rgb = parseHex(hex)
  for (let f = 1; f > 0; f -= 0.005) {
    const candidate = toHex(rgb.map((c) => c * f))
    if (against.every((other) => contrastRatio(candidate, other) >= ratio)) return candidate
  }
  return '#000000'
}
