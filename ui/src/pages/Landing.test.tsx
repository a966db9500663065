import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MANDATE_CLAUSE } from '../components/RegisterForm'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { Landing } from './Landing'
import { Route } from 'wouter'

const renderLanding = (path: string) =>
  renderWithProviders(<Route path="/landing/:mode?" component={Landing} />, { path })

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json' } })

beforeEach(() => {
  resetState(null)
  state.origin = null
})

describe('login form', () => {
  it('shows errors only once a field is touched', async () => {
    const user = userEvent.setup()
    renderLanding('/landing/login')
    const email = screen.getByLabelText('Adresse email')
    const submit = screen.getByRole('button', { name: 'Se connecter' })
    expect(submit).toBeDisabled()

    await user.type(email, 'marie@ferme')
    expect(screen.queryByText('Adresse email invalide')).not.toBeInTheDocument()
    await user.tab() // blur: the field is touched
    expect(screen.getByText('Adresse email invalide')).toBeInTheDocument()
    expect(screen.queryByText('Saisissez votre mot de passe')).not.toBeInTheDocument()

    await user.tab() // password touched while empty
    expect(screen.getByText('Saisissez votre mot de passe')).toBeInTheDocument()

    await user.type(email, '.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'secret')
    expect(screen.queryByText('Adresse email invalide')).not.toBeInTheDocument()
    expect(submit).toBeEnabled()
  })

  it('shows where the visitor came from', () => {
    state.origin = '/dis/needs'
    renderLanding('/landing/login')
    expect(screen.getByText('Vous devez vous connecter pour consulter la page /dis/needs')).toBeInTheDocument()
  })

  it('says nothing when the origin is the root', () => {
    state.origin = '/'
    renderLanding('/landing/login')
    expect(screen.queryByText(/Vous devez vous connecter/)).not.toBeInTheDocument()
  })

  it.each([
    [401, { detail: 'unauthorized' }, "L'adresse email ou le mot de passe saisis sont incorrects."],
    [429, { detail: 'Trop de tentatives, réessayez dans 5 minutes.' }, 'Trop de tentatives, réessayez dans 5 minutes.'],
    [500, { detail: 'boom' }, "Une erreur inconnue s'est produite."],
  ])('maps a %i login failure', async (status, body, message) => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(status, body))
    const user = userEvent.setup()
    renderLanding('/landing/login')
    await user.type(screen.getByLabelText('Adresse email'), 'marie@ferme.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'secret12')
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(state.email).toBeNull()
  })

  it('logs in, stores the email and returns to the origin', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        json(200, { user: { _id: 'u1', type: 'distributor', email: 'shop@exemple.fr', name: 'Shop' } }),
      )
    state.origin = '/dis/supply'
    const user = userEvent.setup()
    const { currentPath } = renderLanding('/landing/login')
    await user.type(screen.getByLabelText('Adresse email'), 'shop@exemple.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'secret12')
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    await waitFor(() => expect(currentPath()).toBe('/dis/supply'))
    expect(fetch).toHaveBeenCalledWith(
      '/auth/login',
      expect.objectContaining({ method: 'POST', credentials: 'same-origin' }),
    )
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ email: 'shop@exemple.fr', password: 'secret12' })
    expect(window.localStorage.getItem('primeur.email')).toBe('shop@exemple.fr')
    expect(state.user?.type).toBe('distributor')
    expect(state.origin).toBeNull()
  })

  it('links to the registration form', () => {
    renderLanding('/landing/login')
    expect(screen.getByRole('link', { name: 'Pas encore de compte ?' })).toHaveAttribute('href', '/landing/register')
  })
})

describe('registration form', () => {
  it('defaults to a shop and toggles to a producer with the billing mandate', async () => {
    const user = userEvent.setup()
    renderLanding('/landing/register')
    expect(screen.getByRole('radio', { name: 'Distributeur' })).toBeChecked()
    expect(screen.queryByText(MANDATE_CLAUSE)).not.toBeInTheDocument()
    await user.click(screen.getByText('Producteur'))
    expect(screen.getByRole('radio', { name: 'Producteur' })).toBeChecked()
    expect(screen.getByText(MANDATE_CLAUSE)).toBeInTheDocument()
    // Read before the button that accepts it, not under it.
    const button = screen.getByRole('button', { name: 'Créer mon compte' })
    expect(
      screen.getByText(MANDATE_CLAUSE).compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy()
  })

  it.each([
    ['/landing/producer', 'Producteur'],
    ['/landing/distributor', 'Distributeur'],
  ])('%s preselects %s', (path, role) => {
    renderLanding(path)
    expect(screen.getByRole('radio', { name: role })).toBeChecked()
  })

  it('shows errors only once touched and enables submit when valid', async () => {
    const user = userEvent.setup()
    renderLanding('/landing/register')
    const submit = screen.getByRole('button', { name: 'Créer mon compte' })
    expect(submit).toBeDisabled()

    await user.click(screen.getByLabelText('Nom de votre entreprise'))
    await user.tab()
    expect(screen.getByText('Le nom de votre entreprise est requis.')).toBeInTheDocument()
    expect(screen.queryByText('Saisissez votre adresse email')).not.toBeInTheDocument()

    await user.type(screen.getByLabelText('Nom de votre entreprise'), 'Épicerie du coin')
    await user.type(screen.getByLabelText('Adresse email'), 'contact@epicerie.fr')
    await user.type(screen.getByLabelText("Confirmation de l'adresse email"), 'autre@epicerie.fr')
    await user.tab()
    expect(screen.getByText('Les deux adresses ne correspondent pas')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Mot de passe'), 'court1')
    await user.tab()
    expect(
      screen.getByText('Mot de passe invalide (8 caractères min., parmi lesquels des lettres et des chiffres)'),
    ).toBeInTheDocument()
    expect(submit).toBeDisabled()

    await user.clear(screen.getByLabelText("Confirmation de l'adresse email"))
    await user.type(screen.getByLabelText("Confirmation de l'adresse email"), 'Contact@Epicerie.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'ennes')
    await user.type(screen.getByLabelText('Confirmation du mot de passe'), 'court1ennes')
    expect(screen.queryByText(/ne correspondent pas/)).not.toBeInTheDocument()
    expect(submit).toBeEnabled()
  })

  it('shows the server message for a duplicate account', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(409, { status: 409, title: 'Conflict', detail: 'Un compte existe déjà avec cette adresse email.' }),
    )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup()
    renderLanding('/landing/producer')
    await user.type(screen.getByLabelText('Nom de votre entreprise'), 'Ferme')
    await user.type(screen.getByLabelText('Adresse email'), 'f@ferme.fr')
    await user.type(screen.getByLabelText("Confirmation de l'adresse email"), 'f@ferme.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'tomates12')
    await user.type(screen.getByLabelText('Confirmation du mot de passe'), 'tomates12')
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }))
    expect(await screen.findByText('Un compte existe déjà avec cette adresse email.')).toBeInTheDocument()
    const body = JSON.parse(String(vi.mocked(fetch).mock.calls[0][1]?.body))
    expect(body).toEqual({
      email: 'f@ferme.fr',
      email2: 'f@ferme.fr',
      password: 'tomates12',
      password2: 'tomates12',
      name: 'Ferme',
      distributor: false,
    })
  })

  it('shows field errors returned by the server', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(422, {
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'validation failed',
        errors: [{ location: 'body.email', message: 'Adresse email invalide' }],
      }),
    )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup()
    renderLanding('/landing/register')
    await user.type(screen.getByLabelText('Nom de votre entreprise'), 'Shop')
    await user.type(screen.getByLabelText('Adresse email'), 's@shop.fr')
    await user.type(screen.getByLabelText("Confirmation de l'adresse email"), 's@shop.fr')
    await user.type(screen.getByLabelText('Mot de passe'), 'tomates12')
    await user.type(screen.getByLabelText('Confirmation du mot de passe'), 'tomates12')
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }))
    expect(await screen.findByText('Adresse email invalide')).toBeInTheDocument()
  })

  it('links to the login form', () => {
    renderLanding('/landing/register')
    expect(screen.getByRole('link', { name: 'Vous avez déjà un compte ?' })).toHaveAttribute('href', '/landing/login')
  })
})

describe('landing panels', () => {
  it('carries the PRODUCT §1 claims', () => {
    renderLanding('/landing')
    expect(screen.getByRole('region', { name: 'Vous êtes un magasin' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Vous êtes un producteur' })).toBeInTheDocument()
    expect(screen.getAllByText(/jusqu'à 7h le jour de la livraison.*7h30/).length).toBe(2)
    expect(screen.getAllByText(/le dernier jour de chaque mois/).length).toBe(2)
    expect(screen.getAllByText(/Aucune commission/).length).toBe(2)
    expect(screen.getAllByText('Délais de paiement').length).toBe(2)
    expect(screen.getAllByText('Comparaison des prix avec les moyennes nationales ou locales').length).toBe(2)
    // Built since the original landing page: no badge any more.
    expect(screen.getAllByText('Recherche par code postal').length).toBe(2)
    expect(screen.getAllByText('Statistiques de progression').length).toBe(2)
    for (const item of screen.getAllByText(/^(Recherche par code postal|Statistiques de progression)$/)) {
      expect(item.closest('li')).not.toHaveTextContent('bientôt')
    }
    // Prépaiement is still announced, in both panels.
    expect(screen.getAllByText('bientôt').length).toBe(2)
    expect(screen.getAllByText('Prépaiement')[0].closest('li')).toHaveTextContent('bientôt')
  })
})
