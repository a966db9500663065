// The team of the session's organisation (issue 41, PRODUCT §13 "Teams"):
// the owners' "Équipe" screen, the header's switch between a person's
// organisations, and the invitation's page. Its own small store; the user
// load (`state.user`: the person, their role, their organisations) stays
// session.ts's.
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { notifyError, progress } from '../notify'
import { forgetOfflineAnswers } from '../offline/caches'
import type { components } from '../schema.gen'
import type { User } from '../types'
import type { Role } from '../team/roles'
import { loadUser, logout } from './session'
import { EMAIL_KEY, type LoadStatus, resetState, state } from './state'

type Schemas = components['schemas']
export type Team = Schemas['TeamsTeam']
export type Member = Schemas['TeamsMember']
export type Invitation = Schemas['TeamsInvitation']
export type PendingInvitation = Schemas['TeamsPending']

export const TEAM_MESSAGES = {
  loadFailed: "Impossible de charger l'équipe",
  inviteProgress: 'Envoi de l’invitation',
  invited: 'Invitation envoyée',
  inviteFailed: 'L’invitation n’est pas partie',
  roleProgress: 'Modification du rôle',
  roleChanged: 'Rôle modifié',
  roleFailed: 'Le rôle n’a pas été modifié',
  removeProgress: 'Retrait du membre',
  removed: 'Membre retiré de l’équipe',
  removeFailed: 'Le membre n’a pas été retiré',
  cancelFailed: 'L’invitation n’a pas été annulée',
  switchFailed: "Impossible de changer d'organisation",
  leaveFailed: 'Vous n’avez pas quitté l’organisation',
} as const

export interface TeamState {
  data: Team | null
  status: LoadStatus
}

export const team = proxy<TeamState>({ data: null, status: 'idle' })

/** The team as last read. */
export const useTeam = () => useSnapshot(team)

/** Empties the store (tests, another organisation). */
export function resetTeam(): void {
  Object.assign(team, { data: null, status: 'idle' })
}

/** Reads the team (owners only: GET /api/team). */
export async function loadTeam(): Promise<void> {
  team.status = 'busy'
  try {
    team.data = await api.get<Team>('/api/team')
    team.status = 'idle'
  } catch (err) {
    team.status = 'error'
    notifyError(TEAM_MESSAGES.loadFailed, errorMessage(err))
  }
}

/**
 * Invites an address with a role; returns success. A refusal's field
 * messages (422) go to `onFieldErrors`.
 */
export async function invite(
  email: string,
  role: Role,
  onFieldErrors?: (errors: Record<string, string>) => void,
): Promise<boolean> {
  const toast = progress(TEAM_MESSAGES.inviteProgress)
  try {
    await api.post<Invitation>('/api/team/invitations', { email, role })
    toast.success(TEAM_MESSAGES.invited, email)
    await loadTeam()
    return true
  } catch (err) {
    toast.failure(TEAM_MESSAGES.inviteFailed, errorMessage(err))
    if (onFieldErrors && err instanceof ApiError && err.status === 422) onFieldErrors(err.fieldErrors())
    return false
  }
}

/** Gives a member another role (their sessions here end). */
export async function setRole(personId: string, role: Role): Promise<void> {
  const toast = progress(TEAM_MESSAGES.roleProgress)
  try {
    team.data = await api.put<Team>(`/api/team/members/${encodeURIComponent(personId)}`, { role })
    toast.success(TEAM_MESSAGES.roleChanged)
  } catch (err) {
    toast.failure(TEAM_MESSAGES.roleFailed, errorMessage(err))
  }
}

/** Removes a member (their sessions here end at once). */
export async function removeMember(personId: string): Promise<void> {
  const toast = progress(TEAM_MESSAGES.removeProgress)
  try {
    team.data = await api.del<Team>(`/api/team/members/${encodeURIComponent(personId)}`)
    toast.success(TEAM_MESSAGES.removed)
  } catch (err) {
    toast.failure(TEAM_MESSAGES.removeFailed, errorMessage(err))
  }
}

/** Cancels a pending invitation. */
export async function cancelInvitation(id: string): Promise<void> {
  try {
    // The invitation leaving the list is the confirmation.
    await api.del<void>(`/api/team/invitations/${encodeURIComponent(id)}`)
    await loadTeam()
  } catch (err) {
    notifyError(TEAM_MESSAGES.cancelFailed, errorMessage(err))
  }
}

/**
 * Acts for another organisation of the person (the header's switcher):
 * the session moves, and everything of the former one is read again.
 */
export async function switchOrganisation(organisation: string): Promise<boolean> {
  try {
    await api.put<{ user: User }>('/api/user/organisation', { organisation })
  } catch (err) {
    notifyError(TEAM_MESSAGES.switchFailed, errorMessage(err))
    return false
  }
  await forgetOfflineAnswers()
  resetTeam()
  resetState(state.email)
  await loadUser()
  return true
}

/**
 * Leaves the session's organisation (a member who is no last owner): the
 * session ends with it, and the local session as at logout. Returns
 * success.
 */
export async function leaveOrganisation(): Promise<boolean> {
  try {
    await api.post<void>('/api/team/leave')
  } catch (err) {
    notifyError(TEAM_MESSAGES.leaveFailed, errorMessage(err))
    return false
  }
  await logout()
  return true
}

/** Sets the person's own name (the profile's "Votre nom"); replaces the user. Throws ApiError (422 with the field's error). */
export async function setPersonName(name: string): Promise<void> {
  const { user } = await api.put<{ user: User }>('/api/user/person', { name })
  state.user = user
}

/** Reads an invitation by its link's token (the invitation's page). Throws ApiError (422 a dead link). */
export async function readInvitation(token: string): Promise<PendingInvitation> {
  return api.post<PendingInvitation>('/auth/invitation', { token })
}

/**
 * Accepts an invitation: a new login (name, password) or the existing
 * one's password; the session opens in the organisation, as a login does.
 * Throws ApiError (422 field errors, 429).
 */
export async function acceptInvitation(token: string, name: string, password: string): Promise<User> {
  const { user } = await api.post<{ user: User }>('/auth/invitation/accept', { token, name, password })
  await forgetOfflineAnswers()
  // As session.ts's login starts a session: the store anew, the email kept.
  resetState(user.email)
  try {
    window.localStorage.setItem(EMAIL_KEY, user.email)
  } catch {
    // Private mode or disabled storage: the session still works for this page.
  }
  state.email = user.email
  state.user = user
  resetTeam()
  return user
}
