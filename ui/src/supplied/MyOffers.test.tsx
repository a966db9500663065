import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { offersState, suggestionOutcome } from '../store/offers'
import { resetState, state } from '../store/state'
import { suppliedState } from '../store/supplied'
import { renderWithProviders } from '../test/render'
import { MyOffers, SuggestType } from './MyOffers'

const apple = {
  _id: 'sp1',
  producer: 'p1',
  productType: 'pomme-reinette',
  productTypeName: 'Pomme Reinette',
  family: 'fruits',
  unit: 'kg' as const,
  name: 'Reinette du Léman',
  packaging: '',
  unitQuantity: 1,
  saleUnit: 'kg',
  labels: [] as [],
  certifier: '',
  months: [1, 2],
  refPrice: 0,
  photo: null,
  documentName: 'Reinette du Léman',
}

const accepted = {
  _id: 's1',
  producer: 'p1',
  producerName: 'Vergers',
  name: 'Pomme Museau de lièvre',
  family: 'fruits',
  unit: 'kg' as const,
  note: '',
  status: 'accepted' as const,
  productType: 'pomme-museau-de-lievre',
  productTypeName: 'Pomme Museau de lièvre',
  createdAt: 0,
}

beforeEach(() => {
  resetState('vergers@leman.fr')
  state.families = [{ _id: 'fruits', name: 'Fruits' }]
  suppliedState.mine = [apple]
  offersState.mine = []
  offersState.suggestions = []
})

function mockDaemon() {
  const posts: { url: string; body: unknown }[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input)
    if ((init?.method ?? 'GET') === 'GET')
      return new Response(JSON.stringify(url === '/api/type-suggestions' ? [accepted] : []))
    const body = JSON.parse(String(init?.body))
    posts.push({ url, body })
    if (url === '/api/offers')
      return new Response(
        JSON.stringify({
          _id: 'o1',
          producer: 'p1',
          producerName: 'Vergers',
          suppliedProduct: apple,
          month: `${body.month}-01`,
          quantity: body.quantity,
          remaining: body.quantity,
          price: body.price,
          distanceKm: null,
        }),
        { status: 201 },
      )
    return new Response(JSON.stringify({ ...accepted, _id: 's2', name: body.name, status: 'pending' }), { status: 201 })
  })
  return posts
}

describe('MyOffers', () => {
  it('checks the form in French before any call, then posts the offer and lists it', async () => {
    const posts = mockDaemon()
    const user = userEvent.setup()
    renderWithProviders(<MyOffers />)
    const form = screen.getByRole('form', { name: 'Publier l’offre' })
    await user.click(within(form).getByRole('button', { name: 'Publier l’offre' }))
    expect(within(form).getByText('Choisissez l’un de vos produits en vente.')).toBeInTheDocument()
    expect(within(form).getByText('Veuillez saisir une quantité supérieure à zéro')).toBeInTheDocument()
    expect(within(form).getByText('Veuillez saisir un prix supérieur à zéro')).toBeInTheDocument()
    expect(posts).toEqual([])

    await user.selectOptions(within(form).getByLabelText('Produit'), 'sp1')
    await user.type(within(form).getByLabelText('Quantité offerte (kg)'), '200')
    await user.type(within(form).getByLabelText('Prix HT (€ / kg)'), '1,6')
    await user.click(within(form).getByRole('button', { name: 'Publier l’offre' }))
    const row = await screen.findByRole('article')
    expect(row).toHaveTextContent('Reinette du Léman')
    expect(row).toHaveTextContent('200 kg à 1,60 € HT / kg · pris 0 kg')
    expect(posts[0].url).toBe('/api/offers')
    expect(posts[0].body).toMatchObject({ suppliedProduct: 'sp1', quantity: 200, price: 1.6 })
  })
})

describe('SuggestType', () => {
  it('sends a suggestion and shows each answer to its producer', async () => {
    const posts = mockDaemon()
    offersState.suggestions = [accepted]
    const user = userEvent.setup()
    renderWithProviders(<SuggestType />)
    expect(screen.getByText(/Pomme Museau de lièvre : Ajouté au catalogue/)).toBeInTheDocument()
    await user.type(screen.getByLabelText('Nom du type'), 'Poire Curé')
    await user.click(screen.getByRole('button', { name: 'Suggérer' }))
    expect(await screen.findByText(/Poire Curé : En attente/)).toBeInTheDocument()
    expect(posts[0]).toEqual({
      url: '/api/type-suggestions',
      body: { name: 'Poire Curé', family: 'fruits', unit: 'kg', note: '' },
    })
    expect(suggestionOutcome({ ...accepted, status: 'merged', productTypeName: 'Pomme Reinette' })).toBe(
      'Déjà au catalogue : choisissez « Pomme Reinette »',
    )
  })
})
