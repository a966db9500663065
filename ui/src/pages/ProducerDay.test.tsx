import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { nextDeliveryDay } from '../deliveries/DayLink'
import type { DeliveryRow } from '../deliveries/model'
import { type DeliveryDay, dayState, moved } from '../store/dayplan'
import { renderWithProviders } from '../test/render'
import { DAY_TITLE, ProducerDay, dayQuantity, shiftDay } from './ProducerDay'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' },
  })

const place = (address: string[]) => ({
  address,
  located: 'town' as const,
  mapUrl: `geo:0,0?q=${encodeURIComponent(address.join(', '))}`,
})

const stop = (shopId: string, shop: string, address: string[], legKm: number) => ({
  ...place(address),
  shopId,
  shop,
  legKm,
})

function dayWith(stops: ReturnType<typeof stop>[], manual = false): DeliveryDay {
  return {
    date: '2026-11-24',
    producer: 'Ferme des Aravis',
    pick: [
      {
        product: 'tomate',
        name: 'Tomate',
        unit: 'kg',
        total: 14.5,
        shops: [
          { shopId: 's1', shop: 'Biocoop Thônes', quantity: 4.5 },
          { shopId: 's2', shop: 'Épicerie du Lac', quantity: 10 },
        ],
      },
      {
        product: 'laitue',
        name: 'Laitue',
        unit: 'un',
        total: 1,
        shops: [{ shopId: 's2', shop: 'Épicerie du Lac', quantity: 1 }],
      },
    ],
    packing: stops.map((s, i) => ({
      shopId: s.shopId,
      shop: s.shop,
      address: s.address,
      notes: [{ orderId: 'o', deliveryId: `d${i}`, number: `BL-00000${i + 1}`, status: 'planned' }],
      lines: [{ product: 'tomate', name: 'Tomate', unit: 'kg', quantity: 4.5 }],
    })),
    round: {
      farm: place(['74220 La Clusaz']),
      stops,
      totalKm: 63.1,
      returnKm: 20.5,
      complete: true,
      manual,
      roadFactor: 1.3,
    },
  }
}

const thones = stop('s1', 'Biocoop Thônes', ['2 place Avet', '74230 Thônes'], 11.5)
const lac = stop('s2', 'Épicerie du Lac', ['3 quai de la Tournette', '74000 Annecy'], 20.5)
const halle = stop('s3', 'Halle de Bonneville', ['74130 Bonneville'], 30)

const renderDay = (date = '2026-11-24') =>
  renderWithProviders(<Route path="/prod/deliveries/day/:date" component={ProducerDay} />, {
    path: `/prod/deliveries/day/${date}`,
  })

beforeEach(() => Object.assign(dayState, { date: null, day: null, status: 'idle', error: null, saving: false }))
afterEach(() => vi.restoreAllMocks())

describe('the producer day', () => {
  it('shows the pick sheet, the packing sheets and the round in three tabs, and a PDF link', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, dayWith([thones, lac])))
    const user = userEvent.setup()
    renderDay()
    expect(screen.getByRole('heading', { level: 1, name: DAY_TITLE })).toBeInTheDocument()
    expect(screen.getByText('Mardi 24 novembre 2026')).toBeInTheDocument()
    const pick = await screen.findByRole('list', { name: 'Produits à cueillir' })
    expect(within(pick).getByText('14,5 kg')).toBeInTheDocument()
    expect(within(pick).getAllByText('1 pièce')).toHaveLength(2) // the day's total and the shop's part
    expect(screen.getByRole('link', { name: 'Imprimer (PDF)' })).toHaveAttribute('href', '/print/day/2026-11-24')

    await user.click(screen.getByRole('tab', { name: 'Colisage' }))
    expect(screen.getByRole('heading', { name: '1. Biocoop Thônes' })).toBeInTheDocument()
    expect(screen.getByText('Bon de livraison : BL-000002')).toBeInTheDocument()

    await user.click(screen.getByRole('tab', { name: 'Tournée' }))
    const stops = within(screen.getByRole('list', { name: 'Arrêts de la tournée' })).getAllByRole('listitem')
    expect(stops.map((li) => li.querySelector('p')?.textContent)).toEqual(['1. Biocoop Thônes', '2. Épicerie du Lac'])
    expect(screen.getByRole('link', { name: "Ouvrir dans l'application de cartes : Épicerie du Lac" })).toHaveAttribute(
      'href',
      lac.mapUrl,
    )
    expect(screen.getByText('2 arrêts · 63,1 km')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Monter Biocoop Thônes' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Descendre Épicerie du Lac' })).toBeDisabled()
  })

  it('moves a stop down, saves the order and shows the day answered', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, dayWith([thones, lac, halle])))
      .mockResolvedValueOnce(json(200, dayWith([lac, thones, halle], true)))
    const user = userEvent.setup()
    renderDay()
    await user.click(await screen.findByRole('tab', { name: 'Tournée' }))
    await user.click(screen.getByRole('button', { name: 'Descendre Biocoop Thônes' }))
    await waitFor(() => expect(screen.getByText('Ordre choisi par vous')).toBeInTheDocument())
    const [path, init] = fetch.mock.calls[1] as [string, RequestInit]
    expect(path).toBe('/api/deliveries/day/2026-11-24/round')
    expect(init.method).toBe('PUT')
    expect(JSON.parse(String(init.body))).toEqual({ stops: ['s2', 's1', 's3'] })
    const names = within(screen.getByRole('list', { name: 'Arrêts de la tournée' }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('p')?.textContent)
    expect(names).toEqual(['1. Épicerie du Lac', '2. Biocoop Thônes', '3. Halle de Bonneville'])
    expect(screen.getByText('Biocoop Thônes : arrêt 2 sur 3')).toBeInTheDocument()
  })

  it('says a refusal in French and an empty day as such', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      json(403, { status: 403, title: 'Forbidden', detail: 'Cette opération est réservée aux producteurs.' }),
    )
    renderDay()
    expect(await screen.findByText('Cette opération est réservée aux producteurs.')).toBeInTheDocument()

    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, dayWith([])))
    renderDay('2026-11-26')
    expect(await screen.findByText('Aucune livraison ce jour-là.')).toBeInTheDocument()
  })
})

describe('the day helpers', () => {
  it('moves a stop within bounds only', () => {
    const stops = [{ shopId: 'a' }, { shopId: 'b' }, { shopId: 'c' }]
    expect(moved(stops, 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moved(stops, 2, -1)).toEqual(['a', 'c', 'b'])
    expect(moved(stops, 0, -1)).toBeNull()
    expect(moved(stops, 2, 1)).toBeNull()
  })

  it('writes quantities and days', () => {
    expect(dayQuantity(12.5, 'kg')).toBe('12,5 kg')
    expect(dayQuantity(1, 'un')).toBe('1 pièce')
    expect(dayQuantity(20, 'un')).toBe('20 pièces')
    expect(shiftDay('2026-11-30', 1)).toBe('2026-12-01')
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28')
  })

  it('links the deliveries screen to the next day with deliveries to make', () => {
    const row = (date: string, status: 'planned' | 'done' | 'cancelled') =>
      ({ delivery: { date, status } }) as DeliveryRow
    expect(
      nextDeliveryDay(
        [row('2026-11-20', 'planned'), row('2026-11-27', 'planned'), row('2026-11-25', 'cancelled')],
        '2026-11-24',
      ),
    ).toBe('2026-11-27')
    expect(nextDeliveryDay([row('2026-11-24', 'done'), row('2026-11-27', 'planned')], '2026-11-24')).toBe('2026-11-24')
    expect(nextDeliveryDay([row('2026-11-23', 'done')], '2026-11-24')).toBe('2026-11-24')
  })
})
