// Session actions (PRODUCT §4 "Session", §8): login, registration, logout,
// user load and profile update. They call the daemon, then write the store.
// Routing stays in components: actions return what happened, and the
// protected-route guard redirects as soon as the stored email is gone.
import { ApiError, api, errorMessage } from '../api'
import { notifyError, progress } from '../notify'
import { forgetOfflineAnswers } from '../offline/caches'
import type { Catalogue, Order, ProfileUpdate, RegistrationRequest, User, UserLoad } from '../types'
import { EMAIL_KEY, heldAll, resetState, state } from './state'

/** The server's detail when no valid session came with the request (PRODUCT §12). */
export const NO_TOKEN_DETAIL = 'User did not provide any token'

export const SESSION_MESSAGES = {
  loginRejected: "L'adresse email ou le mot de passe saisis sont incorrects.",
  unknown: "Une erreur inconnue s'est produite.",
  tokenRejected:
    'Vos informations de connexion ont été rejetées par le serveur. Nous vous invitons donc à vous reconnecter',
  loadFailed: "Échec du chargement de l'utilisateur",
  updateProgress: 'Modification en cours',
  updated: 'Modification effectuée',
  updateFailed: 'Échec de la modification',
  deliveriesUpdated: 'Vos livraisons à venir ont été mises à jour selon vos choix.',
} as const

function storeEmail(email: string | null): void {
  try {
    if (email) window.localStorage.setItem(EMAIL_KEY, email)
    else window.localStorage.removeItem(EMAIL_KEY)
  } catch {
    // Private mode or disabled storage: the session still works for this page.
  }
  state.email = email
}

function startSession(user: User): void {
  resetState(user.email)
  storeEmail(user.email)
  state.user = user
}

/** Remembers the protected path a logged-out visitor was sent away from. */
export function rememberOrigin(path: string): void {
  state.origin = path
}

/** Returns the remembered origin (or "/") and forgets it. */
export function consumeOrigin(): string {
  const origin = state.origin ?? '/'
  state.origin = null
  return origin
}

/** The message shown for a failed login (PRODUCT §8; 429 carries the server's French detail). */
export function loginErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return SESSION_MESSAGES.loginRejected
    if (err.status === 429 && err.detail) return err.detail
  }
  return SESSION_MESSAGES.unknown
}

/** Logs in. Throws ApiError on failure (see `loginErrorMessage`). */
export async function login(email: string, password: string): Promise<User> {
  const { user } = await api.post<{ user: User }>('/auth/login', { email, password })
  // A previous account's answers kept for offline use go before this one's load.
  await forgetOfflineAnswers()
  startSession(user)
  return user
}

/**
 * Asks for a password reset link (PRODUCT §13): the daemon answers the same
 * sentence for any email, returned to be shown. Throws ApiError.
 */
export async function requestPasswordReset(email: string): Promise<string> {
  const { message } = await api.post<{ message: string }>('/auth/password/forgot', { email })
  return message
}

/** Sets a new password with a reset link's token; returns the daemon's sentence. Throws ApiError (422). */
export async function resetPassword(token: string, password: string, password2: string): Promise<string> {
  const { message } = await api.post<{ message: string }>('/auth/password/reset', { token, password, password2 })
  return message
}

/** Changes the password from the profile; returns the daemon's sentence. Throws ApiError (422, 429). */
export async function changePassword(current: string, password: string, password2: string): Promise<string> {
  const { message } = await api.put<{ message: string }>('/api/user/password', { current, password, password2 })
  return message
}

/** Creates an account and logs it in. Throws ApiError (422 field errors, 409 duplicate). */
export async function register(request: RegistrationRequest): Promise<User> {
  try {
    const { user } = await api.post<{ user: User }>('/auth/register', request)
    startSession(user)
    return user
  } catch (err) {
    console.error('register:', err)
    throw err
  }
}

/** Logs out. Server errors are only logged (PRODUCT §8); the local session always ends. */
export async function logout(): Promise<void> {
  try {
    await api.get<void>('/auth/logout')
  } catch (err) {
    console.error('logout:', err)
  }
  // The answers kept for offline use go with the session.
  await forgetOfflineAnswers()
  storeEmail(null)
  resetState(null)
  state.origin = null
}

/**
 * Closes the account with its password (PRODUCT §13 "Closing an account");
 * on success the local session ends as at logout and the daemon's sentence
 * is returned. Throws ApiError (422 wrong password, 409 what blocks it).
 */
export async function closeAccount(current: string): Promise<string> {
  const { message } = await api.post<{ message: string }>('/api/user/close', { current })
  void forgetOfflineAnswers()
  storeEmail(null)
  resetState(null)
  state.origin = null
  return message
}

/** Outcome of a user load: loaded, rejected (logged out, go to login), failed, or skipped. */
export type LoadOutcome = 'loaded' | 'rejected' | 'failed' | 'skipped'

/**
 * Loads what every screen needs: the user load (`GET /api/user`) and the
 * catalogue (`GET /api/catalogue`) side by side; each screen reads its
 * lists itself (store/lists.ts, issue 42), and those this session holds are
 * revalidated. Does nothing while a load runs. A load that works says
 * nothing: the spinner "Chargement en cours" shows while it runs, and a
 * toast on every page load ("Chargement en cours", "Utilisateur chargé")
 * only covered the page (issue 19). Its failures keep their toasts
 * (PRODUCT §8).
 */
export async function loadUser(): Promise<LoadOutcome> {
  if (state.loading.user === 'busy') return 'skipped'
  state.loading.user = 'busy'
  state.loadError = null
  try {
    const [load, catalogue] = await Promise.all([api.get<UserLoad>('/api/user'), api.get<Catalogue>('/api/catalogue')])
    state.user = load.user
    // A confirmed new login email replaces the old one (PRODUCT §13).
    if (load.user.email && load.user.email !== state.email) storeEmail(load.user.email)
    state.products = catalogue?.products ?? []
    state.families = catalogue?.families ?? []
    state.distributors = load.distributors ?? []
    state.producers = load.producers ?? []
    state.counts = load.counts ?? { needs: 0 }
    state.loaded = true
    state.loading.user = 'idle'
    // The lists this session holds, read again: 304s while unchanged. Their
    // module comes with the screens that show them, not with the entry.
    void import('./lists').then((m) => m.refreshLists())
    return 'loaded'
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && err.detail === NO_TOKEN_DETAIL) {
      notifyError(SESSION_MESSAGES.tokenRejected)
      storeEmail(null)
      resetState(null)
      // The protected route now redirects to /landing/login (see `redirectTarget`).
      state.rejected = true
      return 'rejected'
    }
    state.loading.user = 'error'
    // Not an HTTP failure (an unreadable answer): a server error, not "unreachable" (0).
    state.loadError = { status: err instanceof ApiError ? err.status : 500, message: errorMessage(err) }
    notifyError(SESSION_MESSAGES.loadFailed, errorMessage(err))
    return 'failed'
  }
}

/**
 * Saves profile fields (`PUT /api/user`); replaces the user and the orders.
 * Returns success. A refusal's field messages (422: a wrong current
 * password under its field) go to `onFieldErrors` when given.
 */
export async function updateProfile(
  update: ProfileUpdate,
  onFieldErrors?: (errors: Record<string, string>) => void,
): Promise<boolean> {
  const toast = progress(SESSION_MESSAGES.updateProgress)
  try {
    const { user, orders } = await api.put<{ user: User; orders: Order[] }>('/api/user', update)
    state.user = user
    state.orders = heldAll(orders)
    toast.success(SESSION_MESSAGES.updated, SESSION_MESSAGES.deliveriesUpdated)
    return true
  } catch (err) {
    toast.failure(SESSION_MESSAGES.updateFailed, errorMessage(err))
    if (onFieldErrors && err instanceof ApiError && err.status === 422) onFieldErrors(err.fieldErrors())
    return false
  }
}

/** Reports an unexpected failure of any action. */
export function reportError(title: string, err: unknown): void {
  console.error(title, err)
  notifyError(title, errorMessage(err))
}
