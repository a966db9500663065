import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { type SuppliedProduct, suppliedState } from '../store/supplied'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import type { Need, Proposal } from '../types'
import { TradePanel } from './TradePanel'

// A proposal naming the producer's own product (PRODUCT §3 "Producers'
// products"): the producer picks it in the form, the shop sees its name,
// sale unit, labels and photo on the card.

const tomme: SuppliedProduct = {
  _id: 'sp1',
  producer: 'p1',
  productType: 'tomme-de-savoie',
  productTypeName: 'Tomme de Savoie',
  family: 'fromages',
  unit: 'kg',
  name: 'Tomme de Savoie fermière',
  packaging: 'pièce',
  unitQuantity: 1.5,
  saleUnit: 'pièce de 1,5 kg',
  labels: ['aop'],
  certifier: '',
  months: [1, 2, 3, 10, 11, 12],
  refPrice: 14.5,
  photo: { small: '/print/product-photo/s', medium: '/print/product-photo/m', large: '/print/product-photo/l' },
  documentName: 'Tomme de Savoie fermière (pièce de 1,5 kg) · AOP',
}

function need(proposals: Proposal[]): Need {
  return {
    _id: 'n1',
    product: 'tomme-de-savoie',
    distributor: 'd1',
    date: '2099-12-01',
    quantity: 30,
    quantityAccepted: 0,
    quantityProposed: 0,
    quantityAvailable: 30,
    updatedAt: '2026-11-20T10:00:00Z',
    proposals,
  }
}

const producers = [{ _id: 'p1', name: 'Fruitière des Aravis' }]

beforeEach(() => {
  resetState('x@exemple.fr')
  suppliedState.mine = []
  suppliedState.byProducer = {}
  suppliedState.loaded = true
})

describe('a proposal naming the producer’s own product', () => {
  it('is sent with the product the producer picks among its products of the need’s type', async () => {
    suppliedState.mine = [tomme, { ...tomme, _id: 'sp2', name: 'Reblochon', productType: 'reblochon' }]
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise(() => undefined))
    state.user = producer
    const user = userEvent.setup()
    renderWithProviders(
      <TradePanel need={need([])} unit="kg" viewer={{ type: 'producer', id: 'p1' }} producers={producers} />,
    )
    const form = screen.getByRole('form', { name: 'Proposer' })
    const select = within(form).getByLabelText('Votre produit')
    // Its only product of the type is chosen; the reblochon is not offered.
    expect(select).toHaveValue('sp1')
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Aucun : le type seul', 'Tomme de Savoie fermière · pièce de 1,5 kg'])
    await user.type(within(form).getByLabelText('Quantité (kg)'), '12')
    await user.type(within(form).getByLabelText('Prix unitaire HT (€/kg)'), '14,5')
    await user.click(within(form).getByRole('button', { name: 'Proposer' }))
    expect(fetch).toHaveBeenCalledWith(
      '/api/proposals/n1/p1',
      expect.objectContaining({
        method: 'PUT',
        body: JSON.stringify({ quantity: 12, price: 14.5, suppliedProduct: 'sp1' }),
      }),
    )
  })

  it('shows the shop the product’s name, sale unit, label and photo on the proposal', async () => {
    suppliedState.byProducer = { p1: [tomme] }
    state.user = distributor
    renderWithProviders(
      <TradePanel
        need={need([
          {
            _id: 'x',
            producer: 'p1',
            status: 'proposed',
            from: 'producer',
            quantity: 12,
            price: 14.5,
            suppliedProduct: 'sp1',
          },
        ])}
        unit="kg"
        viewer={{ type: 'distributor', id: 'd1' }}
        producers={producers}
      />,
    )
    const card = screen.getByRole('article', { name: 'Proposition de Fruitière des Aravis' })
    const line = within(card).getByTestId('supplied-product-line')
    expect(line).toHaveTextContent('Tomme de Savoie fermière · pièce de 1,5 kg')
    expect(within(line).getByText('AOP')).toBeInTheDocument()
    expect(line.querySelector('img')).toHaveAttribute('src', '/print/product-photo/s')
  })
})
