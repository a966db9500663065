// Test helper: lays the screen out as a phone (usePhone, Mantine's
// useMediaQuery): every media query bounding the width from above matches.
import { onTestFinished } from 'vitest'

/** Makes `(max-width: …)` queries match until the end of the current test. */
export function asPhone(): void {
  const original = window.matchMedia
  window.matchMedia = (query: string) =>
    ({
      matches: /max-width/.test(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList
  onTestFinished(() => {
    window.matchMedia = original
  })
}
