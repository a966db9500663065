import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { SHOP_INVISIBLE } from '../onboarding/checklist'
import { dashboard, resetDashboard } from '../store/dashboard'
import { resetShopMap } from '../store/shopmap'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { type StubShop, askedBox, mapAnswer } from '../test/shopmap'
import type { RewardsStanding } from '../types'
import { IDENTIFIER_NOTICE } from '../validation/identifiers'
import { Dashboard } from './Dashboard'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

const shops: StubShop[] = [
  {
    _id: 'd1',
    name: 'Épicerie du coin',
    email: 'epicerie@exemple.fr',
    latitude: 45.9009,
    longitude: 6.1265,
    score: 1150,
  },
  {
    _id: 'd2',
    name: 'Le Panier des Aravis',
    email: 'panier@exemple.fr',
    latitude: 45.8817,
    longitude: 6.325,
    score: 300,
  },
]

const standing: RewardsStanding = {
  level: 'militant',
  purchases: {
    lastMonth: { month: '2026-10-01', value: 750 },
    currentMonth: { month: '2026-11-01', value: 120.5 },
    monthly: 750,
  },
  monthsOfCommitment: 4,
  rank: 2,
  shops: 7,
  score: 1150,
  contribution: null,
}

function daemon() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = String(input)
    if (path.startsWith('/api/map?')) return json(200, mapAnswer(shops, askedBox(path)))
    if (path === '/api/rewards') return json(200, standing)
    return json(404, { status: 404, title: 'Not Found', detail: 'Ressource introuvable.' })
  })
}

function as(user: typeof producer | typeof distributor) {
  resetState(user.email)
  state.user = user
  state.loaded = true
}

beforeEach(() => {
  resetDashboard()
  resetShopMap()
  Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true })
})

describe('Dashboard', () => {
  it('shows the producer mode: heading, hint, the map, clickable pins leading to the shop', async () => {
    as(producer)
    const fetch = daemon()
    const user = userEvent.setup()
    const { currentPath } = renderWithProviders(<Dashboard />)
    expect(screen.getByRole('heading', { name: 'Planifier mes ventes' })).toBeInTheDocument()
    expect(
      screen.getByText('Je choisis un magasin sur la carte, je visualise ses besoins et je propose mes produits.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Soutien financier' })).not.toBeInTheDocument()
    // The map asks for its shops (their scores for the tooltips); the standing is for shops only.
    await user.click(await screen.findByRole('link', { name: 'Le Panier des Aravis' }))
    expect(fetch).toHaveBeenCalledWith(expect.stringMatching(/^\/api\/map\?south=/), expect.anything())
    expect(fetch).not.toHaveBeenCalledWith('/api/rewards', expect.anything())
    expect(currentPath()).toBe('/prod/needs/d2')
  })

  it('shows a shop its panel, inert pins and the statistics', async () => {
    as(distributor)
    daemon()
    const { currentPath } = renderWithProviders(<Dashboard />)
    expect(screen.getByRole('heading', { name: distributor.name })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Planifier mes ventes' })).not.toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Soutien financier' })).toBeInTheDocument()
    expect(screen.getByTestId('rewards-level')).toHaveTextContent('Militant')
    expect(screen.getByTestId('rewards-score')).toHaveTextContent('1150 pts')
    // Its profile has no position yet: the server's old pin of it is not drawn.
    await waitFor(() => expect(screen.getByTestId('shop-map').querySelector('[data-shop-id="d2"]')).not.toBeNull())
    expect(screen.getByTestId('shop-map').querySelector('[data-shop-id="d1"]')).toBeNull()
    expect(screen.queryAllByRole('link', { name: /Épicerie du coin|Panier/ })).toHaveLength(0)
    expect(currentPath()).toBe('/')
    const stats = screen.getByRole('heading', { name: 'Statistiques' }).closest('.mantine-Card-root') as HTMLElement
    expect(within(stats).getByRole('img', { name: /Achats prévus et réalisés par mois/ })).toBeInTheDocument()
    expect(within(stats).getByTestId('total-planned')).toHaveTextContent('0,00 €')
  })

  it('forgets another session’s standing', async () => {
    as(distributor)
    dashboard.owner = 'someone-else'
    dashboard.rewards = { ...standing, score: 99999 }
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Promise<Response>(() => {}))
    renderWithProviders(<Dashboard />)
    expect(await screen.findByText('Chargement du programme ambassadeur')).toBeInTheDocument()
    expect(screen.queryByText('99999 pts')).not.toBeInTheDocument()
  })

  it('offers to retry when the standing cannot be loaded', async () => {
    as(distributor)
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        json(500, { status: 500, title: 'Internal Server Error', detail: 'Erreur interne du serveur.' }),
      )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup()
    renderWithProviders(<Dashboard />)
    expect(await screen.findByText("Votre programme ambassadeur n'a pas pu être chargé.")).toBeInTheDocument()
    fetch.mockImplementation(async (input) =>
      String(input) === '/api/rewards' ? json(200, standing) : json(200, { total: 0, shops: [], clusters: [] }),
    )
    await user.click(screen.getByRole('button', { name: 'Réessayer de charger le programme ambassadeur' }))
    expect(await screen.findByTestId('rewards-score')).toHaveTextContent('1150 pts')
  })
})

describe('first steps', () => {
  const checklist = () => screen.getByRole('region', { name: 'Premiers pas' })
  const NO_DAYS = [false, false, false, false, false, false, false]
  const complete = {
    addressLine1: '12 rue Sommeiller',
    addressLine3: '74000 Annecy',
    legal: 'EARL',
    siret: '84261530400016',
  }

  it('guides a new producer to its delivery days, address and legal details, each field one click away', async () => {
    as({ ...producer, defaultDeliveryDays: NO_DAYS })
    daemon()
    const user = userEvent.setup()
    renderWithProviders(<Dashboard />)
    expect(within(checklist()).getByText('Encore 3 étapes pour que votre compte soit prêt.')).toBeInTheDocument()
    expect(
      within(checklist())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Choisir vos jours de livraison',
      "Renseigner l'adresse de votre ferme",
      'Renseigner vos informations légales',
    ])
    await user.click(within(checklist()).getByRole('button', { name: 'Choisir vos jours de livraison' }))
    expect(await screen.findByRole('form', { name: 'Informations de profil' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Jours de livraison', { selector: 'input' })).toHaveFocus())
    await user.click(within(checklist()).getByRole('button', { name: 'Renseigner vos informations légales' }))
    await waitFor(() => expect(screen.getByLabelText('Forme juridique')).toHaveFocus())
  })

  it('tells a new shop it is invisible to producers, and links its first needs to the planner', async () => {
    as({ ...distributor, ...complete })
    daemon()
    const user = userEvent.setup()
    const { currentPath } = renderWithProviders(<Dashboard />)
    expect(within(checklist()).getByText('Encore 2 étapes pour que votre compte soit prêt.')).toBeInTheDocument()
    expect(within(checklist()).getByText(SHOP_INVISIBLE)).toBeInTheDocument()
    // Its address has a postal code: the step goes to the coordinates.
    await user.click(within(checklist()).getByRole('button', { name: 'Placer le magasin sur la carte' }))
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveFocus())
    await user.click(within(checklist()).getByRole('link', { name: 'Saisir vos premiers besoins' }))
    expect(currentPath()).toBe('/dis/needs')
  })

  it('goes once every step is done', () => {
    as({ ...producer, ...complete })
    daemon()
    renderWithProviders(<Dashboard />)
    expect(screen.queryByRole('region', { name: 'Premiers pas' })).not.toBeInTheDocument()
  })

  it('opens the profile form on the field a link names', async () => {
    as({ ...producer, defaultDeliveryDays: NO_DAYS })
    daemon()
    const { currentPath } = renderWithProviders(<Dashboard />, { path: '/?profil=defaultDeliveryDays' })
    expect(await screen.findByRole('form', { name: 'Informations de profil' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Jours de livraison', { selector: 'input' })).toHaveFocus())
    expect(currentPath()).toBe('/')
  })
})

// PRODUCT §2 "Dashboard", §5 "Identifiers".
describe('identifiers to correct', () => {
  it('tells the owner what is wrong and opens the profile on the field', async () => {
    as({
      ...producer,
      siret: '73282932000074',
      tvaintracom: 'FR00732829320',
      identifierIssues: [
        { field: 'tvaintracom', message: 'Le n° de TVA intracommunautaire enregistré n’est pas valide.' },
      ],
    })
    daemon()
    const user = userEvent.setup()
    renderWithProviders(<Dashboard />)
    const notice = screen.getByRole('region', { name: IDENTIFIER_NOTICE.title })
    expect(notice).toHaveTextContent('Le n° de TVA intracommunautaire enregistré n’est pas valide.')
    expect(notice).toHaveTextContent(IDENTIFIER_NOTICE.why)
    await user.click(within(notice).getByRole('button', { name: IDENTIFIER_NOTICE.action }))
    expect(await screen.findByRole('form', { name: 'Informations de profil' })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('N° de TVA intracommunautaire')).toHaveFocus())
  })

  it('shows nothing when the identifiers are right', () => {
    as(producer)
    daemon()
    renderWithProviders(<Dashboard />)
    expect(screen.queryByRole('region', { name: IDENTIFIER_NOTICE.title })).not.toBeInTheDocument()
  })
})
