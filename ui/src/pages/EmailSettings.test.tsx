import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { ChangeEmailForm } from '../components/ChangeEmailForm'
import { BANNER_TITLE, bannerText } from '../components/EmailConfirmBanner'
import { NotificationSettings } from '../components/NotificationSettings'
import { ProfileForm } from '../components/ProfileForm'
import { ProtectedShell } from '../components/ProtectedShell'
import { useUser } from '../store/hooks'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import type { NotificationPref } from '../types'
import { validateEmailChange } from '../validation/emailChange'
import { Landing } from './Landing'

const renderLanding = (path: string) =>
  renderWithProviders(<Route path="/landing/:mode?" component={Landing} />, { path })

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' },
  })

const body = (fetch: ReturnType<typeof vi.spyOn>, call = 0) =>
  JSON.parse(String((fetch.mock.calls[call] as [string, RequestInit])[1]?.body))

const PREFS: NotificationPref[] = [
  { kind: 'proposals', label: 'Propositions reçues sur mes besoins', mode: 'immediate' },
  { kind: 'answers', label: 'Réponses à mes propositions', mode: 'daily' },
]

beforeEach(() => resetState(null))
afterEach(() => {
  vi.restoreAllMocks()
  window.location.hash = ''
})

describe('the banner of an unconfirmed login email', () => {
  const shell = () =>
    renderWithProviders(
      <ProtectedShell>
        <p>Page</p>
      </ProtectedShell>,
    )

  beforeEach(() => {
    resetState(distributor.email)
    state.loaded = true
  })

  it('shows on every page while the email is not confirmed, and sends the link again', async () => {
    state.user = { ...distributor, emailConfirmed: false }
    const sent = 'Un nouveau lien de confirmation a été envoyé à epicerie@exemple.fr.'
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, { message: sent }))
    const user = userEvent.setup()
    shell()
    const banner = screen.getByRole('region', { name: BANNER_TITLE })
    expect(banner).toHaveTextContent(bannerText('epicerie@exemple.fr'))
    expect(banner).toHaveTextContent(
      "Un lien de confirmation a été envoyé à epicerie@exemple.fr. Tant que l'adresse n'est pas confirmée, les bons de livraison, les factures et les notifications ne vous sont pas envoyés par email.",
    )
    expect(screen.getByText('Page')).toBeInTheDocument()

    await user.click(within(banner).getByRole('button', { name: 'Renvoyer le lien' }))
    expect(await within(banner).findByText(sent)).toHaveAttribute('aria-live', 'polite')
    expect(fetch.mock.calls[0][0]).toBe('/api/user/email/resend')
    expect((fetch.mock.calls[0][1] as RequestInit).method).toBe('POST')
    expect(body(fetch)).toEqual({ which: 'account' })
  })

  it('says why a link is refused past the limit', async () => {
    state.user = { ...distributor, emailConfirmed: false }
    const refused = 'Trop de liens de confirmation demandés. Veuillez réessayer dans une heure.'
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(429, { status: 429, detail: refused }))
    const user = userEvent.setup()
    shell()
    await user.click(screen.getByRole('button', { name: 'Renvoyer le lien' }))
    expect(await screen.findByText(refused)).toBeInTheDocument()
  })

  it('goes once the email is confirmed', async () => {
    state.user = { ...distributor, emailConfirmed: false }
    shell()
    expect(screen.getByRole('region', { name: BANNER_TITLE })).toBeInTheDocument()
    state.user = { ...distributor, emailConfirmed: true }
    await waitFor(() => expect(screen.queryByRole('region', { name: BANNER_TITLE })).not.toBeInTheDocument())
  })
})

describe('the confirmation link', () => {
  const confirmed = 'Votre adresse email est confirmée. Merci !'

  it('sends the token once, as the page opens, and shows the answer', async () => {
    window.location.hash = '#jeton_du-lien'
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, { message: confirmed }))
    // Strict mode runs effects twice: a link serves once, so one request.
    renderWithProviders(
      <StrictMode>
        <Route path="/landing/:mode?" component={Landing} />
      </StrictMode>,
      { path: '/landing/confirm' },
    )
    expect(screen.getByRole('heading', { name: "Confirmation de l'adresse email" })).toBeInTheDocument()
    expect(await screen.findByText(confirmed)).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0][0]).toBe('/auth/email/confirm')
    expect(body(fetch)).toEqual({ token: 'jeton_du-lien' })
    expect(screen.getByRole('link', { name: "Aller à l'accueil" })).toHaveAttribute('href', '/')
  })

  it('shows why a dead link is refused', async () => {
    window.location.hash = '#vieux'
    const dead = "Ce lien de confirmation n'est plus valable : il a déjà servi, a expiré ou l'adresse a changé depuis."
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(422, { status: 422, detail: dead }))
    renderLanding('/landing/confirm')
    expect(await screen.findByRole('alert')).toHaveTextContent(dead)
  })

  it('loads a logged-in user again, with the new login email', async () => {
    window.location.hash = '#jeton'
    resetState('ancienne@exemple.fr')
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { message: confirmed }))
      .mockResolvedValueOnce(
        json(200, {
          user: { ...distributor, email: 'nouvelle@exemple.fr', emailConfirmed: true },
          counts: { needs: 0 },
        }),
      )
      .mockResolvedValueOnce(json(200, { products: [], families: [] }))
    renderLanding('/landing/confirm')
    expect(await screen.findByText(confirmed)).toBeInTheDocument()
    // The user load and the catalogue beside it (issue 42).
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3))
    expect(fetch.mock.calls[1][0]).toBe('/api/user')
    expect(fetch.mock.calls[2][0]).toBe('/api/catalogue')
    await waitFor(() => expect(state.user?.emailConfirmed).toBe(true))
    expect(state.email).toBe('nouvelle@exemple.fr')
    expect(window.localStorage.getItem('primeur.email')).toBe('nouvelle@exemple.fr')
  })

  it('sends nothing without a token', () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderLanding('/landing/confirm')
    expect(screen.getByText(/Ce lien est incomplet/)).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe('the unsubscribe link', () => {
  it('asks first — opening the link changes nothing — then shows the answer', async () => {
    window.location.hash = '#jeton-desabo'
    const done = 'Vous ne recevrez plus ces notifications par email.'
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, { message: done }))
    const user = userEvent.setup()
    renderLanding('/landing/unsubscribe')
    expect(screen.getByText('Ne plus recevoir ces notifications par email ?')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Me désabonner' }))
    expect(await screen.findByText(done)).toBeInTheDocument()
    expect(fetch.mock.calls[0][0]).toBe('/auth/unsubscribe')
    expect(body(fetch)).toEqual({ token: 'jeton-desabo' })
    expect(screen.queryByRole('button', { name: 'Me désabonner' })).not.toBeInTheDocument()
  })

  it('shows why a link is refused', async () => {
    window.location.hash = '#faux'
    const refused = "Ce lien de désabonnement n'est pas valable."
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(422, { status: 422, detail: refused }))
    const user = userEvent.setup()
    renderLanding('/landing/unsubscribe')
    await user.click(screen.getByRole('button', { name: 'Me désabonner' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(refused)
  })
})

describe('the way back of a login email change', () => {
  it('asks first — opening the link changes nothing — then shows the answer and logs this browser out', async () => {
    window.location.hash = '#jeton-retour'
    resetState(producer.email)
    state.user = producer
    const done =
      "Votre adresse de connexion est de nouveau ferme@exemple.fr. Toutes les sessions du compte sont fermées et, par précaution, son mot de passe ne fonctionne plus : un email vient d'être envoyé à cette adresse avec un lien pour en choisir un nouveau."
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { message: done }))
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
    const user = userEvent.setup()
    renderLanding('/landing/revert')
    expect(screen.getByRole('heading', { name: 'Rétablir votre adresse de connexion' })).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Rétablir mon adresse' }))
    expect(await screen.findByText(done)).toBeInTheDocument()
    expect(fetch.mock.calls[0][0]).toBe('/auth/email/revert')
    expect(body(fetch)).toEqual({ token: 'jeton-retour' })
    expect(fetch.mock.calls[1][0]).toBe('/auth/logout')
    expect(state.email).toBeNull()
    expect(screen.queryByRole('button', { name: 'Rétablir mon adresse' })).not.toBeInTheDocument()
  })

  it('shows why a link is refused, and keeps the session', async () => {
    window.location.hash = '#faux'
    resetState(producer.email)
    const refused =
      "Ce lien n'est plus valable : il a déjà servi, a expiré ou l'adresse a été rétablie depuis. Si votre compte vous échappe, répondez à l'email qui le contenait."
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(422, { status: 422, detail: refused }))
    const user = userEvent.setup()
    renderLanding('/landing/revert')
    await user.click(screen.getByRole('button', { name: 'Rétablir mon adresse' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(refused)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(state.email).toBe(producer.email)
  })

  it('says when the link is incomplete', () => {
    renderLanding('/landing/revert')
    expect(screen.getByRole('status')).toHaveTextContent("Ce lien est incomplet : ouvrez celui de l'email tel quel.")
    expect(screen.queryByRole('button', { name: 'Rétablir mon adresse' })).not.toBeInTheDocument()
  })
})

/** The form as the profile shows it: the pending address read from the store. */
function PendingEmailForm() {
  const user = useUser()
  return <ChangeEmailForm email={user?.email ?? ''} pending={user?.emailPending} />
}

describe('the change of the login email', () => {
  it('checks the fields by PRODUCT §5', () => {
    expect(validateEmailChange({ email: ' ', current: '' })).toEqual({
      email: 'Saisissez votre adresse email',
      current: 'Saisissez votre mot de passe actuel',
    })
    expect(validateEmailChange({ email: 'marie@ferme', current: 'x' })).toEqual({ email: 'Adresse email invalide' })
    expect(validateEmailChange({ email: ' marie@ferme.fr ', current: 'x' })).toEqual({})
  })

  it('sends the new address with the password, shows the refusal, then the answer and the pending address', async () => {
    resetState(distributor.email)
    state.user = distributor
    const wrong = 'Le mot de passe actuel est incorrect.'
    const sent =
      "Si nouvelle@exemple.fr peut servir d'adresse de connexion, un lien de confirmation vient de lui être envoyé. Votre adresse ne change qu'une fois ce lien ouvert ; d'ici là, connectez-vous avec l'actuelle."
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json(422, { status: 422, detail: wrong, errors: [{ location: 'body.current', message: wrong }] }),
      )
      .mockResolvedValueOnce(
        json(200, { message: sent, user: { ...distributor, emailPending: 'nouvelle@exemple.fr' } }),
      )
    const user = userEvent.setup()
    renderWithProviders(<PendingEmailForm />)
    const form = screen.getByRole('form', { name: "Changer d'adresse email" })
    expect(form).toHaveTextContent('Adresse actuelle : epicerie@exemple.fr')
    const submit = within(form).getByRole('button', { name: "Changer d'adresse" })
    expect(submit).toBeDisabled()
    await user.type(within(form).getByLabelText('Nouvelle adresse email'), ' nouvelle@exemple.fr ')
    await user.type(within(form).getByLabelText('Mot de passe actuel'), 'pas-le-bon1')
    await user.click(submit)
    expect((await within(form).findAllByText(wrong)).length).toBeGreaterThan(0)
    expect(fetch.mock.calls[0][0]).toBe('/api/user/email')
    expect((fetch.mock.calls[0][1] as RequestInit).method).toBe('PUT')
    expect(body(fetch)).toEqual({ current: 'pas-le-bon1', email: 'nouvelle@exemple.fr' })

    await user.clear(within(form).getByLabelText('Mot de passe actuel'))
    await user.type(within(form).getByLabelText('Mot de passe actuel'), 'ancien123')
    await user.click(within(form).getByRole('button', { name: "Changer d'adresse" }))
    expect(await screen.findByText(sent)).toBeInTheDocument()
    expect(state.user).toMatchObject({ emailPending: 'nouvelle@exemple.fr' })
    expect(screen.getByLabelText('Nouvelle adresse email')).toHaveValue('')
    expect(await screen.findByText('En attente de confirmation : nouvelle@exemple.fr')).toBeInTheDocument()
  })

  it('is in the profile, with the address pending', () => {
    resetState(producer.email)
    renderWithProviders(<ProfileForm user={{ ...producer, emailPending: 'neuve@ferme.fr' }} onClose={() => {}} />)
    const form = screen.getByRole('form', { name: "Changer d'adresse email" })
    expect(form).toHaveTextContent('Adresse actuelle : ferme@exemple.fr')
    expect(within(form).getByText('En attente de confirmation : neuve@ferme.fr')).toBeInTheDocument()
  })
})

describe('the notification preferences', () => {
  it('lists the kinds as the daemon gives them, each with its three modes', () => {
    renderWithProviders(<NotificationSettings prefs={PREFS} />)
    const panel = screen.getByRole('region', { name: 'Notifications par email' })
    const groups = within(panel).getAllByRole('radiogroup')
    expect(groups).toHaveLength(2)
    const first = within(panel).getByRole('radiogroup', { name: 'Propositions reçues sur mes besoins' })
    expect(groups[0]).toBe(first)
    expect(groups[1]).toBe(within(panel).getByRole('radiogroup', { name: 'Réponses à mes propositions' }))
    expect(
      within(first)
        .getAllByRole('radio')
        .map((r) => r.parentElement?.textContent),
    ).toEqual(['Au plus une par heure', 'Résumé quotidien à 7h', 'Aucune'])
    expect(within(first).getByRole('radio', { name: 'Au plus une par heure' })).toBeChecked()
    const second = within(panel).getByRole('radiogroup', { name: 'Réponses à mes propositions' })
    expect(within(second).getByRole('radio', { name: 'Résumé quotidien à 7h' })).toBeChecked()
  })

  it('saves a change at once and shows what the daemon kept', async () => {
    resetState(distributor.email)
    state.user = { ...distributor, notifications: PREFS }
    const saved = [{ ...PREFS[0], mode: 'none' }, PREFS[1]]
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { user: { ...distributor, notifications: saved } }))
    const user = userEvent.setup()
    renderWithProviders(<NotificationSettings prefs={PREFS} />)
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Propositions reçues sur mes besoins' })).getByRole('radio', {
        name: 'Aucune',
      }),
    )
    await waitFor(() => expect(state.user?.notifications).toEqual(saved))
    expect(fetch.mock.calls[0][0]).toBe('/api/user/notifications')
    expect((fetch.mock.calls[0][1] as RequestInit).method).toBe('PUT')
    expect(body(fetch)).toEqual({ kind: 'proposals', mode: 'none' })
    expect(await screen.findByText('Modification effectuée')).toBeInTheDocument()
  })

  it('puts the mode back when the save fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(500, { status: 500, detail: 'boom' }))
    const user = userEvent.setup()
    renderWithProviders(<NotificationSettings prefs={PREFS} />)
    const group = screen.getByRole('radiogroup', { name: 'Réponses à mes propositions' })
    await user.click(within(group).getByRole('radio', { name: 'Aucune' }))
    expect(await screen.findByText('Échec de la modification')).toBeInTheDocument()
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Résumé quotidien à 7h' })).toBeChecked())
  })

  it('is in the profile, and absent without kinds', () => {
    const { unmount } = renderWithProviders(
      <ProfileForm user={{ ...producer, notifications: PREFS }} onClose={() => {}} />,
    )
    expect(screen.getByRole('region', { name: 'Notifications par email' })).toBeInTheDocument()
    unmount()
    renderWithProviders(<ProfileForm user={producer} onClose={() => {}} />)
    expect(screen.queryByRole('region', { name: 'Notifications par email' })).not.toBeInTheDocument()
  })
})
