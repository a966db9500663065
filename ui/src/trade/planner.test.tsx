// The trade blocks inside the planner's right pane, on both planner screens.
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { DistributorNeeds } from '../pages/DistributorNeeds'
import { ProducerNeeds } from '../pages/ProducerNeeds'
import { resetState, state } from '../store/state'
import { suppliedState } from '../store/supplied'
import { distributor, producer } from '../test/fixtures'
import { need, products, proposal } from '../test/needs'
import { renderWithProviders } from '../test/render'

// The price comparison's own request (store/comparison.ts, tested in
// planner/PriceComparison.test.tsx) stays out of these tests' fetch sequences.
vi.mock('../store/comparison', async (original) => ({
  ...(await original<typeof import('../store/comparison')>()),
  loadComparison: vi.fn(async () => {}),
}))

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  suppliedState.loaded = true // the producer's own products: none
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
  resetState('x@exemple.fr')
  state.products = products
  state.producers = [{ _id: 'p1', name: 'Ferme des Saules' }]
})

afterEach(() => vi.useRealTimers())

describe('the trade blocks in the planner', () => {
  it('let a producer accept the shop’s counter-proposal on the shop’s needs', async () => {
    state.user = producer
    state.distributors = [{ _id: 'd1', name: 'Épicerie du coin', email: 'e@x.fr', latitude: '', longitude: '' }]
    const tomato = need('tomate', '2026-12-01', 40, {
      proposals: [proposal('p1', 'proposed', 5, 'distributor')],
      quantityProposed: 5,
    })
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json([tomato]))
    const user = userEvent.setup()
    renderWithProviders(
      <Route path="/prod/needs/:distributorId">
        <ProducerNeeds />
      </Route>,
      { path: '/prod/needs/d1' },
    )
    await user.click(await screen.findByRole('gridcell', { name: 'Tomate, décembre 2026 : 40 kg' }))
    const pane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    const card = within(pane).getByRole('article', { name: 'Proposition' })
    expect(card).toHaveTextContent('par le magasin')
    expect(within(pane).getByRole('article', { name: 'Autres producteurs' })).toHaveTextContent(
      'Besoin restant non couvert : 35 kg',
    )

    const accepted = {
      ...tomato,
      quantityAccepted: 5,
      quantityProposed: 0,
      proposals: [{ ...tomato.proposals[0], status: 'accepted' as const }],
    }
    const order = { _id: 'o1', date: '2026-12-01', distributor: 'd1', deliveries: [] }
    fetch.mockResolvedValueOnce(json({ ...accepted, order, events: [] }))
    await user.click(within(card).getByRole('button', { name: 'Accepter' }))
    expect(fetch.mock.calls[1][0]).toBe(`/api/proposalreview/${tomato._id}/p1`)
    // The shop's needs held for the planner follow the answer.
    const commitment = await within(pane).findByRole('article', { name: 'Engagement' })
    expect(within(commitment).getByRole('button', { name: 'Corriger' })).toBeInTheDocument()
    expect(state.shopNeeds.needs[0]).toEqual(accepted)
    expect(state.orders).toEqual([order])
    // The answer was enough: the user is not loaded again.
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(screen.getByRole('tab', { name: 'ENGAGÉS (1)' })).toBeInTheDocument()
  })

  it('show the shop each producer’s proposal with its actions', async () => {
    state.user = distributor
    state.needs = [
      need('tomate', '2026-12-01', 100, { quantityProposed: 20, proposals: [proposal('p1', 'proposed', 20)] }),
    ]
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    await user.click(screen.getByRole('gridcell', { name: 'Tomate, décembre 2026 : 100 kg' }))
    const pane = screen.getByRole('complementary', { name: 'Détail du besoin' })
    const card = within(pane).getByRole('article', { name: 'Proposition de Ferme des Saules' })
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Accepter', 'Modifier', 'Refuser'])
    expect(within(pane).queryByRole('article', { name: 'Autres producteurs' })).not.toBeInTheDocument()
  })
})
