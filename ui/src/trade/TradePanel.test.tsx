import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import table from '../../../core/trade/testdata/actions.json'
import { resetState, state } from '../store/state'
import { suppliedState } from '../store/supplied'
import { useNeeds } from '../store/hooks'
import { TRADE_MESSAGES } from '../store/trade'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import type { Need, Proposal } from '../types'
import type { Actions, Side, TradeState } from './actions'
import { TradePanel, isClosedMonth } from './TradePanel'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const problem = (status: number, detail: string, errors: { location: string; message: string }[] = []) =>
  new Response(JSON.stringify({ status, title: 'x', detail, errors }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  })

function need(proposals: Proposal[], figures: Partial<Need> = {}): Need {
  return {
    _id: 'n1',
    product: 'tomate',
    distributor: 'd1',
    date: '2099-12-01',
    quantity: 100,
    quantityAccepted: 0,
    quantityProposed: 0,
    quantityAvailable: 100,
    updatedAt: '2026-11-20T10:00:00Z',
    proposals,
    ...figures,
  }
}

const producers = [
  { _id: 'p1', name: 'Ferme des Saules' },
  { _id: 'p2', name: 'Alpages du Lac' },
]

/** Renders the panel on the stored need, as the planner's pane does. */
function Harness({ viewer }: { viewer: { type: Side; id: string } }) {
  const found = useNeeds().find((n) => n._id === 'n1')
  return found ? <TradePanel need={found} unit="kg" viewer={viewer} producers={producers} /> : null
}

function show(viewerType: Side, n: Need) {
  state.user = viewerType === 'producer' ? producer : distributor
  state.needs = [n]
  return renderWithProviders(<Harness viewer={{ type: viewerType, id: viewerType === 'producer' ? 'p1' : 'd1' }} />)
}

beforeEach(() => {
  resetState('x@exemple.fr')
  // The producer's own products are read (none): the panel reads them once otherwise.
  suppliedState.loaded = true
})

describe('TradePanel, producer', () => {
  it('proposes: French decimals, disabled until valid, "en cours..." while sending, then the card', async () => {
    let resolve!: (r: Response) => void
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise((r) => (resolve = r)))
    const user = userEvent.setup()
    show('producer', need([], { quantityAccepted: 30, quantityAvailable: 70 }))
    const form = screen.getByRole('form', { name: 'Proposer' })
    const send = within(form).getByRole('button', { name: 'Proposer' })
    expect(send).toBeDisabled()
    const quantity = within(form).getByLabelText('Quantité (kg)')
    await user.type(quantity, '1a2.5.3')
    expect(quantity).toHaveValue('12,53')
    await user.clear(quantity)
    await user.type(quantity, '80')
    await user.tab()
    expect(within(form).getByText('La quantité saisie excède le besoin restant (70kg)')).toBeInTheDocument()
    await user.clear(quantity)
    await user.type(quantity, '12.5')
    const price = within(form).getByLabelText('Prix unitaire HT (€/kg)')
    await user.type(price, '2,355')
    await user.tab()
    // More than two decimals is refused, never rounded (issue 13).
    expect(within(form).getByText('Veuillez saisir un prix correct')).toBeInTheDocument()
    expect(send).toBeDisabled()
    await user.clear(price)
    await user.type(price, '2,36')
    expect(send).toBeEnabled()
    await user.click(send)
    expect(await within(form).findByRole('button', { name: 'en cours...' })).toBeDisabled()
    expect(fetch).toHaveBeenCalledWith(
      '/api/proposals/n1/p1',
      expect.objectContaining({ method: 'PUT', body: JSON.stringify({ quantity: 12.5, price: 2.36 }) }),
    )

    resolve(
      json(
        need([{ _id: 'x', producer: 'p1', status: 'proposed', from: 'producer', quantity: 12.5, price: 2.36 }], {
          quantityAccepted: 30,
          quantityProposed: 12.5,
          quantityAvailable: 57.5,
        }),
      ),
    )
    // A first proposal is a creation (PRODUCT §8).
    expect(await screen.findByText('Création effectuée')).toBeInTheDocument()
    expect(screen.queryByText('Modification effectuée')).not.toBeInTheDocument()
    const card = await screen.findByRole('article', { name: 'Proposition' })
    expect(card).toHaveAttribute('data-status', 'proposed')
    expect(card).toHaveAttribute('data-own', 'true')
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Modifier', 'Supprimer'])
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
    const others = screen.getByRole('article', { name: 'Autres producteurs' })
    expect(others).toHaveTextContent("Engagé ou proposé par d'autres producteurs : 30 kg")
    expect(others).toHaveTextContent('Besoin restant non couvert : 57,5 kg')
  })

  it('says to set delivery days first (PRODUCT §8)', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(problem(409, 'Producer should first provide delivery days'))
    const user = userEvent.setup()
    show('producer', need([]))
    await user.type(screen.getByLabelText('Quantité (kg)'), '5')
    await user.type(screen.getByLabelText('Prix unitaire HT (€/kg)'), '2')
    await user.click(screen.getByRole('button', { name: 'Proposer' }))
    expect(await screen.findByText(TRADE_MESSAGES.noDeliveryDays)).toBeInTheDocument()
    expect(TRADE_MESSAGES.noDeliveryDays).toBe(
      "Veuillez renseigner vos jours de livraison sur la page d'accueil avant de soumettre une proposition",
    )
  })

  it('shows the daemon’s field message and "Échec de la modification" otherwise', async () => {
    const msg = 'La quantité saisie excède le besoin restant (3kg)'
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(problem(422, msg, [{ location: 'body.quantity', message: msg }]))
    const user = userEvent.setup()
    show('producer', need([]))
    await user.type(screen.getByLabelText('Quantité (kg)'), '5')
    await user.type(screen.getByLabelText('Prix unitaire HT (€/kg)'), '2')
    await user.click(screen.getByRole('button', { name: 'Proposer' }))
    expect(await screen.findByText('Échec de la modification')).toBeInTheDocument()
    const form = screen.getByRole('form', { name: 'Proposer' })
    expect(within(form).getByText(msg)).toBeInTheDocument()
  })

  it('corrects a commitment, zero allowed, and withdraws', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const user = userEvent.setup()
    show(
      'producer',
      need([{ _id: 'c', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 }], {
        quantityAccepted: 40,
        quantityAvailable: 60,
      }),
    )
    const card = screen.getByRole('article', { name: 'Engagement' })
    expect(card).toHaveAttribute('data-status', 'accepted')
    await user.click(within(card).getByRole('button', { name: 'Corriger' }))
    expect(card).toHaveAttribute('data-selected', 'true')
    const form = screen.getByRole('form', { name: "Corriger l'engagement" })
    const quantity = within(form).getByLabelText('Quantité (kg)')
    expect(quantity).toHaveValue('40')
    await user.clear(quantity)
    await user.tab()
    expect(within(form).getByText('Veuillez saisir une quantité (zéro autorisé)')).toBeInTheDocument()
    await user.type(quantity, '0')
    fetch.mockResolvedValueOnce(
      json(
        need(
          [
            { _id: 'c', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 },
            { _id: 'o', producer: 'p1', status: 'proposed', from: 'producer', quantity: 0, price: 2 },
          ],
          { quantityAccepted: 40, quantityAvailable: 60 },
        ),
      ),
    )
    await user.click(within(form).getByRole('button', { name: 'Envoyer' }))
    expect(fetch).toHaveBeenCalledWith(
      '/api/proposals/n1/p1',
      expect.objectContaining({ body: JSON.stringify({ quantity: 0, price: 2 }) }),
    )
    const waiting = await screen.findByRole('article', { name: 'Engagement' })
    await waitFor(() => expect(waiting).toHaveAttribute('data-waiting', 'true'))
    expect(within(waiting).queryAllByRole('button')).toHaveLength(0)
    const correction = screen.getByRole('article', { name: 'Correction' })
    fetch.mockResolvedValueOnce(
      json(
        need([{ _id: 'c', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 }], {
          quantityAccepted: 40,
          quantityAvailable: 60,
        }),
      ),
    )
    await user.click(within(correction).getByRole('button', { name: 'Supprimer' }))
    expect(await screen.findByText('Suppression effectuée')).toBeInTheDocument()
    expect(fetch).toHaveBeenLastCalledWith('/api/proposals/n1/p1', expect.objectContaining({ method: 'DELETE' }))
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Correction' })).not.toBeInTheDocument())
  })
})

describe('TradePanel, shop', () => {
  it('accepts a proposal: the answer brings the order, nothing is reloaded', async () => {
    // The panel reads the producers' offers near the need once (none here).
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json([]))
    const user = userEvent.setup()
    show(
      'distributor',
      need(
        [
          { _id: 'a', producer: 'p1', status: 'proposed', from: 'producer', quantity: 40, price: 2 },
          { _id: 'b', producer: 'p2', status: 'rejected', from: 'producer', quantity: 10, price: 3 },
        ],
        { quantityProposed: 40, quantityAvailable: 60 },
      ),
    )
    expect(screen.getByRole('heading', { name: 'Ferme des Saules' })).toBeInTheDocument()
    const first = screen.getByRole('article', { name: 'Proposition de Ferme des Saules' })
    expect(first).not.toHaveAttribute('data-own')
    expect(
      within(first)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Accepter', 'Modifier', 'Refuser'])
    expect(screen.getByRole('article', { name: "Proposition d'Alpages du Lac" })).toHaveAttribute(
      'data-status',
      'rejected',
    )
    expect(screen.queryByRole('article', { name: 'Autres producteurs' })).not.toBeInTheDocument()

    const order = { _id: 'o1', date: '2026-12-01', producer: 'p1', deliveries: [] }
    fetch.mockResolvedValueOnce(
      json({
        ...need(
          [
            { _id: 'a', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 },
            { _id: 'b', producer: 'p2', status: 'rejected', from: 'producer', quantity: 10, price: 3 },
          ],
          { quantityAccepted: 40, quantityAvailable: 60 },
        ),
        order,
        events: [],
      }),
    )
    await user.click(within(first).getByRole('button', { name: 'Accepter' }))
    expect(await screen.findByText('Votre réponse a été correctement enregistrée')).toBeInTheDocument()
    expect(fetch).toHaveBeenNthCalledWith(
      2,
      '/api/proposalreview/n1/p1',
      expect.objectContaining({ method: 'PUT', body: '{"accepted":true}' }),
    )
    await waitFor(() => expect(state.orders).toEqual([order]))
    expect(await screen.findByRole('article', { name: 'Engagement de Ferme des Saules' })).toHaveAttribute(
      'data-status',
      'accepted',
    )
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('counter-proposes from the proposal', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const user = userEvent.setup()
    show(
      'distributor',
      need([{ _id: 'a', producer: 'p1', status: 'proposed', from: 'producer', quantity: 40, price: 2 }], {
        quantityProposed: 40,
        quantityAvailable: 60,
      }),
    )
    const card = screen.getByRole('article', { name: 'Proposition de Ferme des Saules' })
    await user.click(within(card).getByRole('button', { name: 'Modifier' }))
    const form = screen.getByRole('form', { name: 'Contre-proposer' })
    expect(card).toHaveAttribute('data-selected', 'true')
    const send = within(form).getByRole('button', { name: 'Envoyer' })
    expect(send).toBeDisabled()
    const price = within(form).getByLabelText('Prix unitaire HT (€/kg)')
    expect(price).toHaveValue('2')
    await user.clear(price)
    await user.type(price, '1,8')
    // The daemon keeps what the counter-proposal answers (issue 37).
    const counter: Proposal = {
      _id: 'a',
      producer: 'p1',
      status: 'proposed',
      from: 'distributor',
      quantity: 40,
      price: 1.8,
      previousFrom: 'producer',
      previousQuantity: 40,
      previousPrice: 2,
    }
    fetch.mockResolvedValueOnce(json(need([counter], { quantityProposed: 40, quantityAvailable: 60 })))
    await user.click(send)
    expect(fetch).toHaveBeenCalledWith(
      '/api/proposals/n1/p1',
      expect.objectContaining({ body: JSON.stringify({ quantity: 40, price: 1.8 }) }),
    )
    // Named a counter-proposal, with the producer's values it replaced.
    const own = await screen.findByRole('article', { name: 'Contre-proposition de Ferme des Saules' })
    await waitFor(() => expect(own).toHaveAttribute('data-own', 'true'))
    expect(own).toHaveTextContent(/40 kg à 1,80\s€\/kg/)
    expect(own).toHaveTextContent(/Au lieu de 40 kg à 2,00\s€\/kg proposés par le producteur/)
    expect(
      within(own)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Modifier', 'Supprimer'])
    await user.click(within(own).getByRole('button', { name: 'Modifier' }))
    expect(screen.getByRole('form', { name: 'Modifier la proposition' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
  })

  it('names a counter-proposal so, for both sides, with the values it replaced; a first proposal is not one', () => {
    const counter: Proposal = {
      _id: 'a',
      producer: 'p1',
      status: 'proposed',
      from: 'distributor',
      quantity: 25,
      price: 2,
      previousFrom: 'producer',
      previousQuantity: 32,
      previousPrice: 2.2,
    }
    const { unmount } = show('producer', need([counter], { quantityProposed: 25, quantityAvailable: 75 }))
    const card = screen.getByRole('article', { name: 'Contre-proposition' })
    expect(card).toHaveTextContent(/Au lieu de 32 kg à 2,20\s€\/kg proposés par vous/)
    unmount()

    const { unmount: unmountShop } = show(
      'distributor',
      need([counter], { quantityProposed: 25, quantityAvailable: 75 }),
    )
    expect(screen.getByRole('article', { name: 'Contre-proposition de Ferme des Saules' })).toHaveTextContent(
      /Au lieu de 32 kg à 2,20\s€\/kg proposés par le producteur/,
    )
    unmountShop()

    // Countering a correction: named so too, the commitment beside it.
    const commitment: Proposal = {
      _id: 'c',
      producer: 'p1',
      status: 'accepted',
      from: 'producer',
      quantity: 30,
      price: 2,
    }
    const { unmount: unmountFix } = show(
      'distributor',
      need([commitment, { ...counter, from: 'producer', previousFrom: 'distributor' }], { quantityAccepted: 30 }),
    )
    const fix = screen.getByRole('article', { name: 'Contre-proposition de correction de Ferme des Saules' })
    expect(fix).toHaveTextContent(/Au lieu de 32 kg à 2,20\s€\/kg proposés par vous/)
    expect(screen.getByRole('article', { name: 'Engagement de Ferme des Saules' })).not.toHaveTextContent(/Au lieu/)
    unmountFix()

    // A first proposal, and an answer without values kept (made before the server kept them): plain.
    show('distributor', need([{ ...counter, from: 'producer', previousFrom: undefined }], { quantityProposed: 25 }))
    const plain = screen.getByRole('article', { name: 'Proposition de Ferme des Saules' })
    expect(plain).not.toHaveTextContent(/Au lieu/)
  })

  it('refuses a producer’s correction: the refused card offers the shop nothing more, the commitment only Corriger', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const user = userEvent.setup()
    const commitment: Proposal = {
      _id: 'a',
      producer: 'p1',
      status: 'accepted',
      from: 'producer',
      quantity: 40,
      price: 2,
    }
    show(
      'distributor',
      need([commitment, { _id: 'b', producer: 'p1', status: 'proposed', from: 'producer', quantity: 30, price: 2 }], {
        quantityAccepted: 40,
        quantityAvailable: 60,
      }),
    )
    const names = (name: string) =>
      within(screen.getByRole('article', { name }))
        .queryAllByRole('button')
        .map((b) => b.textContent)
    expect(names('Correction de Ferme des Saules')).toEqual(['Accepter', 'Modifier', 'Refuser'])
    expect(names('Engagement de Ferme des Saules')).toEqual([])
    fetch.mockResolvedValueOnce(
      json(
        need([commitment, { _id: 'b', producer: 'p1', status: 'rejected', from: 'producer', quantity: 30, price: 2 }], {
          quantityAccepted: 40,
          quantityAvailable: 60,
        }),
      ),
    )
    await user.click(
      within(screen.getByRole('article', { name: 'Correction de Ferme des Saules' })).getByRole('button', {
        name: 'Refuser',
      }),
    )
    expect(fetch).toHaveBeenCalledWith(
      '/api/proposalreview/n1/p1',
      expect.objectContaining({ method: 'PUT', body: '{"accepted":false}' }),
    )
    await waitFor(() =>
      expect(screen.getByRole('article', { name: 'Correction de Ferme des Saules' })).toHaveAttribute(
        'data-status',
        'rejected',
      ),
    )
    expect(names('Correction de Ferme des Saules')).toEqual([])
    expect(names('Engagement de Ferme des Saules')).toEqual(['Corriger'])
  })

  it('says when no producer has proposed', () => {
    show('distributor', need([]))
    expect(screen.getByText('Aucune proposition de producteur pour ce besoin')).toBeInTheDocument()
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
  })
})

describe('a past month', () => {
  it('closes the negotiation: cards without actions, no form', () => {
    show('producer', {
      ...need([{ _id: 'c', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 }]),
      date: '2020-01-01',
    })
    expect(screen.getByText('Ce mois est passé : les propositions sont closes.')).toBeInTheDocument()
    expect(within(screen.getByRole('article', { name: 'Engagement' })).queryAllByRole('button')).toHaveLength(0)
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
  })
  it('is known in Paris time', () => {
    expect(isClosedMonth('2026-11-01', new Date('2026-11-30T23:30:00Z'))).toBe(true) // 1 December in Paris
    expect(isClosedMonth('2026-11-01', new Date('2026-11-30T22:30:00Z'))).toBe(false)
    expect(isClosedMonth('2026-12-01', new Date('2026-11-30T23:30:00Z'))).toBe(false)
  })
})

describe('TradePanel shows exactly the actions of the shared table', () => {
  interface Row {
    why: string
    state: TradeState
    viewer: Side
    actions: Actions
  }
  it.each((table as Row[]).map((r) => [`${r.why} (${r.viewer})`, r] as const))('%s', (_, row) => {
    const proposals: Proposal[] = []
    if (row.state.committed)
      proposals.push({ _id: 'c', producer: 'p1', status: 'accepted', from: 'producer', quantity: 40, price: 2 })
    if (row.state.open)
      proposals.push({
        _id: 'o',
        producer: 'p1',
        status: row.state.open,
        from: row.state.from || 'producer',
        quantity: 50,
        price: 2.5,
      })
    show(row.viewer, need(proposals, { quantityAccepted: row.state.committed ? 40 : 0 }))
    const who = row.viewer === 'producer' ? '' : ' de Ferme des Saules'
    const buttons = (name: string) => {
      const card = screen.queryByRole('article', { name })
      return card
        ? within(card)
            .queryAllByRole('button')
            .map((b) => b.textContent?.toLowerCase())
        : []
    }
    expect(buttons(`Engagement${who}`)).toEqual(row.actions.commitment)
    expect(buttons(`${row.state.committed ? 'Correction' : 'Proposition'}${who}`)).toEqual(row.actions.open)
    expect(!!screen.queryByRole('form', { name: 'Proposer' })).toBe(row.actions.propose)
  })
})
