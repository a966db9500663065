import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { OffersForNeed } from './Offers'

beforeEach(() => {
  resetState(distributor.email)
  state.user = distributor
})

const offer = {
  _id: 'o1',
  producer: 'p1',
  producerName: 'Vergers du Léman',
  month: '2027-02-01',
  quantity: 200,
  remaining: 120,
  price: 1.6,
  distanceKm: 12.2,
  suppliedProduct: {
    _id: 'sp1',
    producer: 'p1',
    productType: 'pomme-reinette',
    productTypeName: 'Pomme Reinette',
    family: 'fruits',
    unit: 'kg',
    name: 'Reinette du Léman',
    packaging: '',
    unitQuantity: 1,
    saleUnit: 'kg',
    labels: ['hve'],
    certifier: '',
    months: [1, 2, 3],
    refPrice: 0,
    photo: null,
    documentName: 'Reinette du Léman · HVE',
  },
}

const need = {
  _id: 'n1',
  product: 'pomme-reinette',
  distributor: distributor._id,
  date: '2027-02-01',
  quantity: 80,
  quantityAccepted: 80,
  quantityProposed: 0,
  quantityAvailable: 0,
  updatedAt: '2026-11-20T09:00:00Z',
  proposals: [],
}

describe('OffersForNeed', () => {
  it('shows nothing without an offer', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('[]', { status: 200 }))
    renderWithProviders(<OffersForNeed productType="pomme-reinette" month="2027-02-01" />)
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled())
    expect(String(fetch.mock.calls[0][0])).toBe('/api/offers?productType=pomme-reinette&month=2027-02-01')
    expect(screen.queryByRole('region')).toBeNull()
  })

  it('lists the offers of the need’s type and month, refuses more than remains in French, takes one', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response(JSON.stringify([offer]), { status: 200 }))
    const user = userEvent.setup()
    renderWithProviders(<OffersForNeed productType="pomme-reinette" month="2027-02-01" />)
    const region = await screen.findByRole('region', { name: 'Offres des producteurs pour ce mois' })
    expect(within(region).getByRole('link', { name: 'Vergers du Léman' })).toHaveAttribute('href', '/dis/producers/p1')
    expect(region).toHaveTextContent('à 12 km')
    expect(region).toHaveTextContent('Reinette du Léman · kg · février 2027')
    expect(region).toHaveTextContent('reste 120 kg · 1,60 € HT / kg')
    expect(within(region).getByText('HVE')).toBeInTheDocument()

    const field = within(region).getByLabelText('Quantité (kg)')
    await user.clear(field)
    await user.type(field, '121')
    await user.click(within(region).getByRole('button', { name: 'Prendre' }))
    expect(await within(region).findByText('Il ne reste que 120 kg sur cette offre.')).toBeInTheDocument()
    const calls = fetch.mock.calls.length

    fetch.mockImplementation(async (input) =>
      String(input).endsWith('/take')
        ? new Response(JSON.stringify({ ...need, events: [] }), { status: 200 })
        : new Response(JSON.stringify([{ ...offer, remaining: 40 }]), { status: 200 }),
    )
    await user.clear(field)
    await user.type(field, '80')
    await user.click(within(region).getByRole('button', { name: 'Prendre' }))
    expect(await within(region).findByText(/reste 40 kg/)).toBeInTheDocument()
    const take = fetch.mock.calls[calls]
    expect(String(take[0])).toBe('/api/offers/o1/take')
    expect(JSON.parse(String((take[1] as RequestInit).body))).toEqual({ quantity: 80 })
    // The need the take created joins the shop's needs, its commitment with it.
    expect(state.needs.find((n) => n._id === 'n1')?.quantityAccepted).toBe(80)
  })
})
