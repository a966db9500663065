import {
  type AlertProps,
  type CSSVariablesResolver,
  DEFAULT_THEME,
  type DrawerProps,
  type MantineColorsTuple,
  type ModalProps,
  type NotificationProps,
  type PaginationProps,
  createTheme,
  keys,
} from '@mantine/core'
import { darkenTo } from './a11y/contrast'

/** White, the page's background. */
const WHITE = '#ffffff'

/**
 * Minimum contrast ratios of WCAG 2.1 AA (RGAA 4.1 criteria 3.2 and 3.3):
 * text 4.5:1, large text and the parts of controls 3:1. The palettes keep
 * a small margin over 4.5 so that rounding never makes a pair fail.
 */
export const TEXT_RATIO = 4.6

/**
 * One of Mantine's palettes made readable (PRODUCT §20 "Accessibility"):
 * shades 0–5 (backgrounds, borders) are kept; 6 to 9 are darkened, keeping
 * their hue, until
 * - 6 — filled controls under white text, coloured text (`c="red"`, the
 *   error text, anchors, subtle and outline buttons) and the focus border of
 *   fields — reaches 4.6:1 against white and the pale shades 0–1 it sits on;
 * - 7 and 8 — hovers, the header — are each darker than the one before
 *   (5.5 and 6.5:1 on white);
 * - 9 — the text of the "light" variant (badges, alerts, light buttons) on
 *   its pale shade 1 background (2 when hovered) — reaches 4.6:1 there.
 */
export function accessiblePalette(colors: MantineColorsTuple): MantineColorsTuple {
  const [c0, c1, c2] = colors
  const s6 = darkenTo(colors[6], TEXT_RATIO, [WHITE, c0, c1])
  const s7 = darkenTo(colors[7], 5.5, [WHITE, c0, c1])
  const s8 = darkenTo(colors[8], 6.5, [WHITE, c0, c1])
  const s9 = darkenTo(colors[9], 7, [WHITE, c0, c1, c2])
  return [colors[0], colors[1], colors[2], colors[3], colors[4], colors[5], s6, s7, s8, s9]
}

/** Every palette of Mantine, made readable ("dark" is the dark scheme's, unused). */
const colors = Object.fromEntries(
  keys(DEFAULT_THEME.colors)
    .filter((name) => name !== 'dark')
    .map((name) => [name, accessiblePalette(DEFAULT_THEME.colors[name])]),
) as Record<string, MantineColorsTuple>

/**
 * The focus ring (WCAG 2.4.7, 1.4.11): 3 px of dark blue, 7.9:1 on white
 * and over 6.8:1 on the pale backgrounds; white on the green header.
 * Drawn by a11y.css on every focusable element (`:focus-visible`).
 */
export const FOCUS_RING = '#174ea6'

/** The names of a pagination's arrows. */
export const PAGINATION_LABELS = {
  first: 'Première page',
  previous: 'Page précédente',
  next: 'Page suivante',
  last: 'Dernière page',
} as const

/**
 * Mantine theme: green for fresh produce, system fonts with French
 * typography in mind, and colours that meet WCAG 2.1 AA (see
 * accessiblePalette and cssVariablesResolver).
 */
export const theme = createTheme({
  primaryColor: 'green',
  // Shade 6 of every palette is the filled and text shade (Mantine's default, said here).
  primaryShade: { light: 6, dark: 8 },
  colors,
  defaultRadius: 'md',
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  // Names of the controls that only draw an icon (WCAG 4.1.2), in French, everywhere.
  // Plain objects, typed by the components' props: Mantine's Component.extend
  // returns its argument, but importing the components to call it put the
  // modal, the drawer and the pagination (with their scroll lock and
  // floating code) in every page's first script (issue 42).
  components: {
    Pagination: {
      defaultProps: {
        getControlProps: (control) => ({ 'aria-label': PAGINATION_LABELS[control] }),
      } satisfies Partial<PaginationProps>,
    },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Fermer' } } satisfies Partial<ModalProps> },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Fermer' } } satisfies Partial<DrawerProps> },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Fermer' } } satisfies Partial<NotificationProps>,
    },
    Alert: { defaultProps: { closeButtonLabel: 'Fermer' } satisfies Partial<AlertProps> },
  },
})

/**
 * CSS variables that Mantine does not take from the palettes' shade 6:
 * the dimmed text of hints (gray 6, made readable above, instead of Mantine's
 * own 3.3:1), the placeholder (gray 6, not the 2.1:1 gray 5), and the error text
 * (red 6), plus the focus ring of a11y.css.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: { '--primeur-focus-ring': FOCUS_RING },
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-6)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    '--mantine-color-error': 'var(--mantine-color-red-6)',
    '--mantine-color-anchor': 'var(--mantine-color-green-6)',
  },
  dark: {},
})

/** Dates settings: French locale, weeks start on Monday (PRODUCT §1). */
export const datesSettings = { locale: 'fr', firstDayOfWeek: 1 } as const
