import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { ChangePasswordForm } from '../components/ChangePasswordForm'
import { CloseAccountForm } from '../components/CloseAccountForm'
import { CutoffReminderSwitch } from '../components/CutoffReminderSwitch'
import { MyDataPanel } from '../components/MyDataPanel'
import { linkToken } from '../routing'
import { resetState } from '../store/state'
import { renderWithProviders } from '../test/render'
import { RESET_TEXTS, validateForgot, validateReset } from '../validation/passwordReset'
import { Landing } from './Landing'

const renderLanding = (path: string) =>
  renderWithProviders(<Route path="/landing/:mode?" component={Landing} />, { path })

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' },
  })

const SENT =
  'Si un compte existe avec cette adresse, un email vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Ce lien est valable une heure.'

beforeEach(() => resetState(null))
afterEach(() => {
  vi.restoreAllMocks()
  window.location.hash = ''
})

describe('password reset rules', () => {
  it('checks the email, then the new password by PRODUCT §5', () => {
    expect(validateForgot({ email: '  ' })).toEqual({ email: 'Saisissez votre adresse email' })
    expect(validateForgot({ email: 'marie@ferme' })).toEqual({ email: 'Adresse email invalide' })
    expect(validateForgot({ email: ' marie@ferme.fr ' })).toEqual({})
    expect(validateReset({ password: 'court1', password2: 'court1' }).password).toMatch(/^Mot de passe invalide/)
    expect(validateReset({ password: 'nouveau123', password2: 'nouveau124' })).toEqual({
      password2: 'Les deux mots de passe ne correspondent pas',
    })
    expect(validateReset({ password: 'nouveau123', password2: 'nouveau123' })).toEqual({})
    expect(linkToken('#abc_DEF-123')).toBe('abc_DEF-123')
    expect(linkToken('')).toBe('')
  })
})

describe('forgotten password', () => {
  it('is linked from the login form and shows the daemon’s one answer', async () => {
    const user = userEvent.setup()
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, { message: SENT }))
    renderLanding('/landing/login')
    await user.click(screen.getByRole('link', { name: RESET_TEXTS.forgotLink }))
    expect(await screen.findByRole('heading', { name: 'Mot de passe oublié' })).toBeInTheDocument()
    await user.type(screen.getByLabelText('Adresse email'), ' marie@ferme.fr ')
    await user.click(screen.getByRole('button', { name: 'Recevoir le lien' }))
    expect(await screen.findByText(SENT)).toBeInTheDocument()
    expect(fetch.mock.calls[0][0]).toBe('/auth/password/forgot')
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ email: 'marie@ferme.fr' })
    expect(screen.queryByRole('button', { name: 'Recevoir le lien' })).not.toBeInTheDocument()
  })

  it('says when too many links were asked for', async () => {
    const user = userEvent.setup()
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      json(429, { status: 429, detail: 'Trop de demandes de réinitialisation. Veuillez réessayer dans une heure.' }),
    )
    renderLanding('/landing/forgot')
    await user.type(screen.getByLabelText('Adresse email'), 'marie@ferme.fr')
    await user.click(screen.getByRole('button', { name: 'Recevoir le lien' }))
    expect(
      await screen.findByText('Trop de demandes de réinitialisation. Veuillez réessayer dans une heure.'),
    ).toBeInTheDocument()
  })
})

describe('new password', () => {
  it('sends the token of the link with the password, then offers to log in', async () => {
    const user = userEvent.setup()
    window.location.hash = '#jeton_du-lien'
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json(200, { message: 'Votre mot de passe a été modifié. Connectez-vous avec le nouveau.' }),
      )
    renderLanding('/landing/reset')
    const submit = screen.getByRole('button', { name: 'Enregistrer le mot de passe' })
    expect(submit).toBeDisabled()
    await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau123')
    await user.type(screen.getByLabelText('Confirmation du nouveau mot de passe'), 'nouveau123')
    await user.click(submit)
    expect(
      await screen.findByText('Votre mot de passe a été modifié. Connectez-vous avec le nouveau.'),
    ).toBeInTheDocument()
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      token: 'jeton_du-lien',
      password: 'nouveau123',
      password2: 'nouveau123',
    })
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/landing/login')
  })

  it('says when the link is dead, and when it has no token', async () => {
    const user = userEvent.setup()
    window.location.hash = '#vieux'
    const dead = "Ce lien n'est plus valable : il a déjà servi ou a expiré. Demandez-en un nouveau."
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      json(422, { status: 422, detail: dead, errors: [{ location: 'body.token', message: dead }] }),
    )
    const { unmount } = renderLanding('/landing/reset')
    await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau123')
    await user.type(screen.getByLabelText('Confirmation du nouveau mot de passe'), 'nouveau123')
    await user.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }))
    expect(await screen.findByText(dead)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toHaveAttribute('href', '/landing/forgot')
    unmount()

    window.location.hash = ''
    renderLanding('/landing/reset')
    expect(screen.getByText(RESET_TEXTS.missingToken)).toBeInTheDocument()
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument()
  })
})

describe('password change in the profile', () => {
  it('asks the current password, shows the daemon’s refusal under it, then its answer', async () => {
    const user = userEvent.setup()
    const wrong = 'Le mot de passe actuel est incorrect.'
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json(422, { status: 422, detail: wrong, errors: [{ location: 'body.current', message: wrong }] }),
      )
      .mockResolvedValueOnce(
        json(200, { message: 'Votre mot de passe a été modifié. Vos autres sessions sont fermées.' }),
      )
    renderWithProviders(<ChangePasswordForm />)
    const submit = screen.getByRole('button', { name: 'Changer le mot de passe' })
    await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau123')
    await user.type(screen.getByLabelText('Confirmation du nouveau mot de passe'), 'nouveau123')
    expect(submit).toBeDisabled()
    await user.click(screen.getByLabelText('Mot de passe actuel'))
    await user.tab()
    expect(screen.getByText('Saisissez votre mot de passe actuel')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()

    await user.type(screen.getByLabelText('Mot de passe actuel'), 'pas-le-bon1')
    await user.click(submit)
    expect((await screen.findAllByText(wrong)).length).toBeGreaterThan(0)
    expect(fetch.mock.calls[0][0]).toBe('/api/user/password')
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      current: 'pas-le-bon1',
      password: 'nouveau123',
      password2: 'nouveau123',
    })

    await user.clear(screen.getByLabelText('Mot de passe actuel'))
    await user.type(screen.getByLabelText('Mot de passe actuel'), 'ancien123')
    await user.click(screen.getByRole('button', { name: 'Changer le mot de passe' }))
    expect(
      await screen.findByText('Votre mot de passe a été modifié. Vos autres sessions sont fermées.'),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Mot de passe actuel')).toHaveValue('')
  })
})

describe('my data', () => {
  it('downloads the personal data export from the profile', () => {
    renderWithProviders(<MyDataPanel />)
    const link = screen.getByRole('link', { name: 'Télécharger mes données' })
    expect(link).toHaveAttribute('href', '/print/mydata')
    expect(link).toHaveAttribute('download')
  })
})

describe('closing the account', () => {
  it('asks the password, shows what blocks the closure, then logs out', async () => {
    const user = userEvent.setup()
    const blocked =
      'Votre compte ne peut pas encore être supprimé : une livraison est prévue : faites-la ou annulez-la.'
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(409, { status: 409, detail: blocked }))
      .mockResolvedValueOnce(json(200, { message: 'Votre compte est supprimé.' }))
    renderWithProviders(<CloseAccountForm />)
    expect(screen.queryByLabelText('Mot de passe actuel')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Supprimer mon compte…' }))
    await user.click(screen.getByRole('button', { name: 'Supprimer définitivement' }))
    expect(screen.getByText('Saisissez votre mot de passe actuel')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
    await user.type(screen.getByLabelText('Mot de passe actuel'), 'ancien123')
    await user.click(screen.getByRole('button', { name: 'Supprimer définitivement' }))
    expect(await screen.findByText(blocked)).toBeInTheDocument()
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ current: 'ancien123' })

    window.localStorage.setItem('primeur.email', 'x@exemple.fr')
    await user.click(screen.getByRole('button', { name: 'Supprimer définitivement' }))
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => expect(window.localStorage.getItem('primeur.email')).toBeNull())
  })
})

describe('the reminder of the 25th', () => {
  it('is turned off at once with PUT /api/user', async () => {
    const user = userEvent.setup()
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { user: { _id: 'p1', type: 'producer', cutoffReminder: false }, orders: [] }))
    renderWithProviders(<CutoffReminderSwitch on />)
    const toggle = screen.getByRole('switch', { name: 'Recevoir le rappel du 25' })
    expect(toggle).toBeChecked()
    await user.click(toggle)
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    expect(fetch.mock.calls[0][0]).toBe('/api/user')
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ cutoffReminder: false })
  })
})
