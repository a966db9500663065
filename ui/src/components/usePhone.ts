import { em } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'

/**
 * The widest screen laid out as a phone: below Mantine's `md` breakpoint,
 * where the screens' side panes no longer fit beside their lists.
 */
export const PHONE_MAX = em(991.98)

/**
 * Whether the screen is laid out as a phone (or a small tablet) — from its
 * width, never its pixel ratio (a phone has a ratio of 2 or 3 and is not a
 * large screen). False under tests without matchMedia.
 */
export function usePhone(): boolean {
  return useMediaQuery(`(max-width: ${PHONE_MAX})`, false, { getInitialValueInEffect: false }) ?? false
}
