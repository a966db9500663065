// Toasts (PRODUCT §2: close after 4000 ms; PRODUCT §8: progress, success and failure texts).
// A progress toast is replaced in place by its outcome, so one action shows one toast.
import { notifications } from '@mantine/notifications'

/** Toast lifetime (PRODUCT §9). */
export const TOAST_DURATION = 4000

let counter = 0

/** A running operation: show "… en cours", then `success` or `failure`. */
export interface Progress {
  success(title: string, message?: string): void
  failure(title: string, message?: string): void
}

/** Shows a progress toast ("Chargement en cours", "Modification en cours", …). */
export function progress(title: string): Progress {
  const id = `primeur-${++counter}`
  // The toasts' container is a polite live region (App.tsx): progress and
  // success are statuses, said in turn; a failure is an alert, read at once.
  notifications.show({
    id,
    title,
    message: '',
    loading: true,
    autoClose: false,
    withCloseButton: false,
    role: 'status',
  })
  const finish = (color: string, role: 'status' | 'alert', title: string, message = '') =>
    notifications.update({
      id,
      title,
      message,
      color,
      role,
      loading: false,
      autoClose: TOAST_DURATION,
      withCloseButton: true,
    })
  return {
    success: (title, message) => finish('green', 'status', title, message),
    failure: (title, message) => finish('red', 'alert', title, message),
  }
}

/** A one-off failure toast. */
export function notifyError(title: string, message = ''): void {
  notifications.show({ title, message, color: 'red', autoClose: TOAST_DURATION, role: 'alert' })
}
