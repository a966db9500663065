import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AppRoutes } from './App'
import { AppHeader } from './components/AppHeader'
import { EMAIL_KEY, resetState, state } from './store/state'
import { distributor, producer } from './test/fixtures'
import { renderWithProviders } from './test/render'
import type { ActivityEvent, Catalogue, Need, Order, RewardsStanding, UserLoad } from './types'

const renderApp = (path: string) =>
  renderWithProviders(
    <>
      <AppHeader />
      <AppRoutes />
    </>,
    { path },
  )

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

/** What the fake daemon holds: the user load, and what each screen reads apart (issue 42). */
type World = UserLoad & Catalogue & { needs: Need[]; events: ActivityEvent[]; orders: Order[] }

const load = (user: UserLoad['user'], extra: Partial<World> = {}): World => ({
  user,
  counts: { needs: 0 },
  needs: [],
  products: [],
  families: [],
  distributors: [],
  producers: [],
  events: [],
  orders: [],
  ...extra,
})

const standing: RewardsStanding = {
  level: 'militant',
  purchases: {
    lastMonth: { month: '2026-10-01', value: 640 },
    currentMonth: { month: '2026-11-01', value: 120 },
    monthly: 640,
  },
  monthsOfCommitment: 3,
  rank: 2,
  shops: 5,
  score: 940,
  contribution: null,
}

/**
 * A fake daemon answering by path: the user load, the catalogue, the
 * screens' lists, the dashboard's rewards, chart and map calls, logout.
 */
const serve = (world: World) => async (input: RequestInfo | URL) => {
  const path = String(input)
  const { needs, events, orders, products, families, ...userLoad } = world
  if (path === '/auth/logout') return json(204, undefined)
  if (path.startsWith('/api/map?')) return json(200, { total: 0, shops: [], clusters: [] })
  if (path === '/api/rewards') return json(200, standing)
  if (path === '/api/catalogue') return json(200, { products, families })
  if (path.startsWith('/api/needs')) return json(200, needs)
  if (path.startsWith('/api/orders')) return json(200, orders)
  if (path.startsWith('/api/events')) return json(200, events)
  if (path === '/api/stats/purchases') return json(200, { months: [], planned: [], done: [] })
  if (path.startsWith('/api/stats/progression')) return json(200, { months: [], products: [] })
  return json(200, userLoad)
}

function logIn(email: string) {
  window.localStorage.setItem(EMAIL_KEY, email)
  resetState(email)
}

beforeEach(() => {
  resetState(null)
  state.origin = null
})

describe('logged out', () => {
  it('sends / to /landing', async () => {
    const { currentPath } = renderApp('/')
    await waitFor(() => expect(currentPath()).toBe('/landing'))
    expect(screen.getByTestId('session-status')).toHaveTextContent('non connecté')
    expect(screen.queryByText(/Vous devez vous connecter/)).not.toBeInTheDocument()
  })

  it.each(['/dis/needs', '/dis/supply', '/dis/deliveries', '/prod/deliveries', '/prod/needs/d1'])(
    'sends %s to /landing/login and remembers it',
    async (path) => {
      const { currentPath } = renderApp(path)
      await waitFor(() => expect(currentPath()).toBe('/landing/login'))
      expect(await screen.findByText(`Vous devez vous connecter pour consulter la page ${path}`)).toBeInTheDocument()
      expect(state.origin).toBe(path)
    },
  )

  it('shows the about page and a 404', async () => {
    const { unmount } = renderApp('/about')
    expect(screen.getByRole('heading', { name: 'About' })).toBeInTheDocument()
    unmount()
    renderApp('/nulle/part')
    expect(screen.getByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument()
  })
})

describe('logged in', () => {
  it('loads the user, shows the dashboard and the distributor navigation', async () => {
    logIn(distributor.email)
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(serve(load(distributor)))
    renderApp('/')
    expect(screen.getByText('Chargement en cours')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: distributor.email })).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledWith(
      '/api/user',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
    )
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Accueil', 'Planifier', 'Réasso.', 'Récep.', 'Payer'])
    expect(within(nav).getByRole('link', { name: 'Accueil' })).toHaveAttribute('aria-current', 'page')
    expect(within(nav).getByRole('button', { name: 'Activités' })).toBeInTheDocument()
    // The spinner was enough: no toast on a page load, none covering the page.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByText('Utilisateur chargé')).not.toBeInTheDocument()
    expect(document.querySelectorAll('.mantine-Notification-root')).toHaveLength(0)
  })

  it('highlights Vendre for a producer on a shop page', async () => {
    logIn(producer.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input).startsWith('/api/needs')
        ? json(200, [])
        : json(
            200,
            load(producer, {
              distributors: [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }],
            }),
          ),
    )
    renderApp('/prod/needs/d1')
    const nav = await screen.findByRole('navigation', { name: 'Navigation principale' })
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Vendre', 'Livrer', 'Encaisser'])
    expect(within(nav).getByRole('link', { name: 'Vendre' })).toHaveAttribute('aria-current', 'page')
    expect(await screen.findByRole('heading', { name: 'Épicerie du coin' })).toBeInTheDocument()
  })

  it('opens the activity feed', async () => {
    logIn(distributor.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      serve(
        load(distributor, {
          events: [
            {
              _id: 'e1',
              createdAt: '2026-11-20T09:15:00Z',
              type: 'proposal:request',
              data: {},
              origin: { email: 'ferme@exemple.fr', name: 'Ferme des Saules' },
              target: { name: distributor.name },
            },
          ],
        }),
      ),
    )
    const user = userEvent.setup()
    renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Activités' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('heading', { name: 'Vendredi 20 novembre 2026' })).toBeInTheDocument()
    expect(within(dialog).getByText('Ferme des Saules vous a proposé une offre.')).toBeInTheDocument()
    expect(within(dialog).getByText('10:15')).toBeInTheDocument()
  })

  it('shows an empty activity feed', async () => {
    logIn(distributor.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(serve(load(distributor)))
    const user = userEvent.setup()
    renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Activités' }))
    expect(await screen.findByText("Pas d'activité récente")).toBeInTheDocument()
  })

  it('toggles the profile form from the email button', async () => {
    logIn(producer.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(serve(load(producer)))
    const user = userEvent.setup()
    renderApp('/')
    const toggle = await screen.findByRole('button', { name: producer.email })
    await user.click(toggle)
    expect(await screen.findByRole('heading', { name: 'Informations de profil' })).toBeInTheDocument()
    await user.click(toggle)
    expect(screen.queryByRole('heading', { name: 'Informations de profil' })).not.toBeInTheDocument()
  })

  it('quits: logs out, forgets the email and goes to /', async () => {
    logIn(distributor.email)
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(serve(load(distributor)))
    const user = userEvent.setup()
    const { location } = renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Quitter' }))
    await waitFor(() => expect(location.history.at(-1)).toBe('/landing'))
    expect(location.history).toContain('/')
    expect(fetch).toHaveBeenCalledWith('/auth/logout', expect.objectContaining({ method: 'GET' }))
    expect(window.localStorage.getItem(EMAIL_KEY)).toBeNull()
    expect(state.user).toBeNull()
    expect(screen.getByTestId('session-status')).toHaveTextContent('non connecté')
  })

  it('sends a rejected session back to the login form', async () => {
    logIn(distributor.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(401, { status: 401, title: 'Unauthorized', detail: 'User did not provide any token' }),
    )
    const { currentPath } = renderApp('/')
    await waitFor(() => expect(currentPath()).toBe('/landing/login'))
    expect(
      await screen.findByText(
        'Vos informations de connexion ont été rejetées par le serveur. Nous vous invitons donc à vous reconnecter',
      ),
    ).toBeInTheDocument()
    expect(window.localStorage.getItem(EMAIL_KEY)).toBeNull()
    expect(state.email).toBeNull()
  })

  it('shows the credentials card when the user load gets another 401', async () => {
    logIn(distributor.email)
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json(401, { status: 401, title: 'Unauthorized', detail: 'session expirée' }),
    )
    renderApp('/')
    expect(await screen.findByRole('heading', { name: 'Erreur' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Identifiants de connexion non reconnus' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Accueil' })).toHaveAttribute('href', '/landing/login')
    expect(screen.queryByRole('button', { name: 'Réessayer' })).not.toBeInTheDocument()
    expect(await screen.findByText("Échec du chargement de l'utilisateur")).toBeInTheDocument()
  })

  it('shows a server-error card with a retry when the user load fails with a 500, never the credentials card', async () => {
    logIn(distributor.email)
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) =>
        String(input) === '/api/user'
          ? json(500, { status: 500, title: 'Internal Server Error', detail: 'base indisponible' })
          : json(200, { products: [], families: [] }),
      )
    const user = userEvent.setup()
    renderApp('/')
    expect(await screen.findByText("Échec du chargement de l'utilisateur")).toBeInTheDocument()
    const card = screen.getByText('Erreur du serveur').closest('[role="alert"]') as HTMLElement
    expect(within(card).getByRole('heading', { name: 'Erreur' })).toHaveFocus()
    expect(within(card).getByRole('heading', { name: 'Erreur du serveur' })).toBeInTheDocument()
    expect(card).toHaveTextContent(
      "Le serveur n'a pas pu charger vos informations. Vos identifiants ne sont pas en cause : réessayez dans un instant.",
    )
    expect(card).toHaveTextContent('base indisponible')
    expect(screen.queryByText('Identifiants de connexion non reconnus')).not.toBeInTheDocument()
    // "Réessayer" loads again; this time it works.
    fetch.mockImplementation(serve(load(distributor)))
    await user.click(within(card).getByRole('button', { name: 'Réessayer' }))
    expect(await screen.findByRole('button', { name: distributor.email })).toBeInTheDocument()
    expect(fetch.mock.calls.filter(([url]) => String(url) === '/api/user')).toHaveLength(2)
  })

  it('says the server cannot be reached when the user load gets no answer', async () => {
    logIn(distributor.email)
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    renderApp('/')
    expect(await screen.findByRole('heading', { name: 'Serveur injoignable' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeInTheDocument()
    expect(screen.queryByText('Identifiants de connexion non reconnus')).not.toBeInTheDocument()
  })
})
