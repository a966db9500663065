import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { resetShopMap } from '../store/shopmap'
import { resetState, state } from '../store/state'
import { producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ProducerNeeds } from './ProducerNeeds'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function daemon() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = String(input)
    if (path.startsWith('/api/needs?distributor=')) return json(200, [])
    if (path === '/api/shops/d7') return json(200, { _id: 'd7', name: 'Halles de Brest', email: '' })
    return json(404, { status: 404, detail: 'Ressource introuvable.' })
  })
}

const page = (path: string) =>
  renderWithProviders(
    <Route path="/prod/needs/:distributorId">
      <ProducerNeeds />
    </Route>,
    { path },
  )

beforeEach(() => {
  resetState(producer.email)
  resetShopMap()
  state.user = producer
  state.loaded = true
})

describe('a producer on a shop’s needs', () => {
  it('names a shop it does not trade with yet, opened from the map, by asking the server', async () => {
    const fetch = daemon()
    page('/prod/needs/d7')
    expect(await screen.findByRole('heading', { name: 'Halles de Brest' })).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledWith('/api/shops/d7', expect.anything())
  })

  it('names a partner from the user load, without asking', async () => {
    const fetch = daemon()
    state.distributors = [
      { _id: 'd7', name: 'Halles de Brest (partenaire)', email: 'h@x.fr', latitude: '', longitude: '' },
    ]
    page('/prod/needs/d7')
    expect(await screen.findByRole('heading', { name: 'Halles de Brest (partenaire)' })).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalledWith('/api/shops/d7', expect.anything())
  })
})
