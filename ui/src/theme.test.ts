// The colours of the theme against WCAG 2.1 AA (issue 19): the pairs the
// interface draws, each at 4.5:1 for text (3:1 for the focus ring and
// controls' parts), and the values the accessibility statement gives.
import { DEFAULT_THEME } from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { contrastRatio, darkenTo, luminance } from './a11y/contrast'
import { FOCUS_RING, accessiblePalette, theme } from './theme'

const colors = theme.colors!
const shade = (name: string, i: number) => colors[name]![i]
const WHITE = '#ffffff'

describe('contrast', () => {
  it('is the WCAG ratio', () => {
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5)
    expect(contrastRatio(WHITE, WHITE)).toBe(1)
    expect(luminance('#fff')).toBe(1)
    // The figures the issue measured on Mantine's own palette.
    expect(contrastRatio('#40c057', WHITE)).toBeCloseTo(2.36, 2) // green 6: links, the active pill
    expect(contrastRatio('#fa5252', WHITE)).toBeCloseTo(3.28, 2) // red 6: error text
    expect(contrastRatio('#868e96', WHITE)).toBeCloseTo(3.32, 2) // gray 6: dimmed hints
  })

  it('darkens a colour just enough, keeping its hue', () => {
    const dark = darkenTo('#40c057', 4.5, [WHITE])
    expect(contrastRatio(dark, WHITE)).toBeGreaterThanOrEqual(4.5)
    expect(contrastRatio(dark, WHITE)).toBeLessThan(4.7)
    expect(darkenTo('#000000', 4.5, [WHITE])).toBe('#000000')
  })
})

describe('the theme', () => {
  it('keeps the pale shades and darkens 6 to 9, each darker than the one before', () => {
    for (const name of Object.keys(colors)) {
      const palette = colors[name]!
      expect(palette.slice(0, 6)).toEqual(DEFAULT_THEME.colors[name].slice(0, 6))
      for (let i = 6; i < 9; i++) expect(luminance(palette[i + 1])).toBeLessThan(luminance(palette[i]))
    }
    expect(accessiblePalette(DEFAULT_THEME.colors.green)).toEqual(colors.green)
  })

  it('draws text at 4.5:1 or more wherever Mantine puts a palette', () => {
    for (const name of Object.keys(colors)) {
      // Filled controls (white text), coloured text, anchors, the error text: shade 6 on white and on the pale shades.
      expect(contrastRatio(shade(name, 6), WHITE), `${name} 6 on white`).toBeGreaterThanOrEqual(4.5)
      expect(contrastRatio(shade(name, 6), shade(name, 0)), `${name} 6 on 0`).toBeGreaterThanOrEqual(4.5)
      // Hovered filled controls, the header (white text on green 7).
      expect(contrastRatio(shade(name, 7), WHITE), `${name} 7 on white`).toBeGreaterThanOrEqual(4.5)
      // The light variant: shade 9 text on shade 1 (2 when hovered).
      expect(contrastRatio(shade(name, 9), shade(name, 1)), `${name} light`).toBeGreaterThanOrEqual(4.5)
      expect(contrastRatio(shade(name, 9), shade(name, 2)), `${name} light hover`).toBeGreaterThanOrEqual(4.5)
    }
  })

  it('fixes the pairs the issue measured', () => {
    // The values given in the report and the accessibility statement.
    expect(shade('green', 6)).toBe('#297a37')
    expect(contrastRatio(shade('green', 6), WHITE)).toBeCloseTo(5.34, 2) // links, active pill, filled buttons (was 2.36)
    expect(contrastRatio(shade('green', 7), WHITE)).toBeCloseTo(6.37, 2) // the header (was 2.74)
    expect(contrastRatio(shade('red', 6), WHITE)).toBeCloseTo(5.6, 1) // error text (was 3.28)
    expect(contrastRatio(shade('gray', 6), WHITE)).toBeCloseTo(5.16, 2) // dimmed hints (was 3.32)
    expect(contrastRatio(shade('gray', 6), shade('gray', 0))).toBeGreaterThanOrEqual(4.5) // hints on grey cards
  })

  it('has a focus ring of 3:1 or more on white, the pale backgrounds and the filled green', () => {
    expect(contrastRatio(FOCUS_RING, WHITE)).toBeCloseTo(7.85, 2)
    for (const bg of [shade('gray', 0), shade('gray', 1), shade('green', 0), shade('green', 1)])
      expect(contrastRatio(FOCUS_RING, bg)).toBeGreaterThanOrEqual(3)
    // In the header the ring is white on green 7.
    expect(contrastRatio(WHITE, shade('green', 7))).toBeGreaterThanOrEqual(3)
  })
})

describe('the components’ French names', () => {
  it('names the close buttons and the pagination’s arrows, without importing the components', () => {
    const c = theme.components!
    for (const name of ['Modal', 'Drawer', 'Notification'])
      expect(c[name]?.defaultProps).toMatchObject({ closeButtonProps: { 'aria-label': 'Fermer' } })
    expect(c.Alert?.defaultProps).toMatchObject({ closeButtonLabel: 'Fermer' })
    const controlProps = (c.Pagination?.defaultProps as { getControlProps: (k: string) => object }).getControlProps
    expect(controlProps('next')).toEqual({ 'aria-label': 'Page suivante' })
  })
})
