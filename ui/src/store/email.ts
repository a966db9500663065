// Email actions (PRODUCT §13 "Confirming an email", "Notifications"): the
// confirmation links (opened, sent again), the change of the login email,
// the notification preferences and the unsubscribe link. They call the
// daemon and write the user it answers into the store; the sentences the
// daemon answers are returned for the components to show. Errors are
// thrown as ApiError (French `detail`, field errors).
import { api, errorMessage } from '../api'
import { progress } from '../notify'
import type { ConfirmWhich, NotificationMode, User } from '../types'
import { loadUser, logout } from './session'
import { state } from './state'

/** The daemon's paths (the public ones beside /auth/password/forgot, the others under /api/user). */
export const EMAIL_PATHS = {
  confirm: '/auth/email/confirm',
  revert: '/auth/email/revert',
  unsubscribe: '/auth/unsubscribe',
  resend: '/api/user/email/resend',
  change: '/api/user/email',
  notifications: '/api/user/notifications',
} as const

/** Toast texts of a notification preference change (PRODUCT §8). */
export const EMAIL_MESSAGES = {
  updateProgress: 'Modification en cours',
  updated: 'Modification effectuée',
  updateFailed: 'Échec de la modification',
} as const

/**
 * Opens a confirmation link (public: no session needed); returns the
 * daemon's sentence. When someone is logged in on this browser, the user
 * is loaded again so that what the link confirmed shows (the banner goes,
 * a new login email replaces the old one). Throws ApiError (422: the link
 * is dead).
 */
export async function confirmEmail(token: string): Promise<string> {
  const { message } = await api.post<{ message: string }>(EMAIL_PATHS.confirm, { token })
  if (state.email) void loadUser()
  return message
}

/**
 * Opens the way back of a login email change (public): the daemon restores
 * the replaced address and ends every session of the account, so a user
 * logged in on this browser is logged out here too. Returns the daemon's
 * sentence. Throws ApiError (422: the link is dead).
 */
export async function revertEmail(token: string): Promise<string> {
  const { message } = await api.post<{ message: string }>(EMAIL_PATHS.revert, { token })
  if (state.email) await logout()
  return message
}

/** Sends a confirmation link again, for the login email or the accounting email. Throws ApiError (429 past limits). */
export async function resendConfirmation(which: ConfirmWhich): Promise<string> {
  const { message } = await api.post<{ message: string }>(EMAIL_PATHS.resend, { which })
  return message
}

/**
 * Asks for a new login email, with the current password: the daemon emails
 * a link to it and the user comes back with it pending (`emailPending`).
 * Returns the daemon's sentence. Throws ApiError (field errors on
 * `current` and `email`, 429).
 */
export async function changeEmail(current: string, email: string): Promise<string> {
  const { message, user } = await api.put<{ message: string; user: User }>(EMAIL_PATHS.change, { current, email })
  state.user = user
  return message
}

/** Saves how one kind of notification is emailed; replaces the user. Returns success (the toasts tell the rest). */
export async function setNotificationMode(kind: string, mode: NotificationMode): Promise<boolean> {
  const toast = progress(EMAIL_MESSAGES.updateProgress)
  try {
    const { user } = await api.put<{ user: User }>(EMAIL_PATHS.notifications, { kind, mode })
    state.user = user
    toast.success(EMAIL_MESSAGES.updated)
    return true
  } catch (err) {
    toast.failure(EMAIL_MESSAGES.updateFailed, errorMessage(err))
    return false
  }
}

/** Turns off the kind of notification of an unsubscribe link (public); returns the daemon's sentence. Throws ApiError. */
export async function unsubscribe(token: string): Promise<string> {
  const { message } = await api.post<{ message: string }>(EMAIL_PATHS.unsubscribe, { token })
  return message
}
