import { Notifications } from '@mantine/notifications'
import { TOAST_DURATION } from '../notify'
import { usePhone } from './usePhone'
import './toasts.css'

/**
 * Where the toasts go: top right on a large screen; on a phone (usePhone),
 * at the bottom in the middle, above the bottom navigation, where a phone's
 * own short messages appear. At the top of a phone they covered an open
 * dialog's title and its close button for as long as they stayed, the
 * dialog's header being there too (a Modal's, a DetailSheet's).
 */
const TOAST_POSITION = { large: 'top-right', phone: 'bottom-center' } as const

/**
 * The toasts' containers (notify.ts shows the toasts). They are always in
 * the page: a polite live region, so that each toast and its progress
 * turning into an outcome are said (WCAG 4.1.3); where they are drawn does
 * not change what is said, nor the order of the page's focusable elements.
 */
export function Toasts() {
  const phone = usePhone()
  return (
    <Notifications
      position={phone ? TOAST_POSITION.phone : TOAST_POSITION.large}
      autoClose={TOAST_DURATION}
      aria-live="polite"
      className="primeur-toasts"
    />
  )
}
