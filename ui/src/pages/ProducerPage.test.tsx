import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Route } from 'wouter'
import { resetState, state } from '../store/state'
import { suppliedState } from '../store/supplied'
import { renderWithProviders } from '../test/render'
import { ProducerPage } from './ProducerPage'

beforeEach(() => {
  resetState('epicerie@lac.fr')
  suppliedState.byProducer = {}
  suppliedState.closed = {}
})

describe('ProducerPage', () => {
  it('shows a producer’s products to a shop with their photos, sale units and labels', async () => {
    state.producers = [{ _id: 'p1', name: 'Fruitière des Aravis' }] as typeof state.producers
    const product = {
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
      labels: ['ab', 'aop'],
      certifier: 'FR-BIO-01',
      months: [10, 11, 12],
      refPrice: 14.5,
      photo: { small: '/s', medium: '/m', large: '/l' },
      documentName: 'x',
    }
    const offer = {
      _id: 'o1',
      producer: 'p1',
      producerName: 'Fruitière des Aravis',
      suppliedProduct: product,
      month: '2027-02-01',
      quantity: 30,
      remaining: 30,
      price: 15,
      distanceKm: null,
    }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async (input) => new Response(JSON.stringify(String(input).startsWith('/api/offers') ? [offer] : [product])),
      )
    renderWithProviders(<Route path="/dis/producers/:producerId" component={ProducerPage} />, {
      path: '/dis/producers/p1',
    })
    expect(screen.getByRole('heading', { name: 'Fruitière des Aravis' })).toBeInTheDocument()
    const card = await screen.findByRole('article', { name: 'Tomme de Savoie fermière' })
    expect(fetch).toHaveBeenCalledWith('/api/producers/p1/supplied-products', expect.anything())
    expect(card).toHaveTextContent('Tomme de Savoie · pièce de 1,5 kg')
    expect(within(card).getByText('AB FR-BIO-01')).toBeInTheDocument()
    expect(within(card).getByText('AOP')).toBeInTheDocument()
    expect(card).toHaveTextContent('oct., nov., déc.')
    expect(within(card).getByRole('img', { name: 'Photo : Tomme de Savoie fermière' })).toHaveAttribute('src', '/m')
    // Its offers, which a shop takes from the page (PRODUCT §3 "Offers").
    const offers = await screen.findByRole('region', { name: 'Offres en cours' })
    expect(fetch).toHaveBeenCalledWith('/api/offers?producer=p1', expect.anything())
    expect(offers).toHaveTextContent('Tomme de Savoie fermière · pièce de 1,5 kg · février 2027')
    expect(within(offers).getByRole('button', { name: 'Prendre' })).toBeInTheDocument()
  })

  it('says a closed producer’s products are no longer on sale', async () => {
    state.producers = [{ _id: 'p2', name: 'Ferme fermée' }] as typeof state.producers
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input).startsWith('/api/offers')
        ? new Response('[]')
        : new Response(
            JSON.stringify({
              status: 404,
              detail: 'Ce producteur a fermé son compte : ses produits ne sont plus en vente.',
            }),
            { status: 404, headers: { 'Content-Type': 'application/problem+json' } },
          ),
    )
    renderWithProviders(<Route path="/dis/producers/:producerId" component={ProducerPage} />, {
      path: '/dis/producers/p2',
    })
    expect(
      await screen.findByText('Ce producteur a fermé son compte : ses produits ne sont plus en vente.'),
    ).toBeInTheDocument()
    expect(screen.queryByText('Ce producteur n’a pas encore de produit en vente.')).not.toBeInTheDocument()
  })
})
