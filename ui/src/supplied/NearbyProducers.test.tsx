import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { NearbyProducers, distanceText } from './NearbyProducers'

beforeEach(() => resetState('epicerie@lac.fr'))

const dairy = {
  producer: 'p1',
  name: 'Fruitière des Aravis',
  distanceKm: 30.4,
  products: [
    {
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
      months: [1],
      refPrice: 0,
      photo: null,
      documentName: 'x',
    },
  ],
}

describe('NearbyProducers', () => {
  it('reads nothing until opened, then asks for the need’s type with the label and distance chosen', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response(JSON.stringify([dairy]), { status: 200 }))
    const user = userEvent.setup()
    renderWithProviders(<NearbyProducers productType="tomme-de-savoie" />)
    expect(fetch).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Trouver des producteurs' }))
    const region = screen.getByRole('region', { name: 'Producteurs de ce produit' })
    expect(await within(region).findByRole('link', { name: 'Fruitière des Aravis' })).toHaveAttribute(
      'href',
      '/dis/producers/p1',
    )
    expect(region).toHaveTextContent('à 30 km')
    expect(region).toHaveTextContent('Tomme de Savoie fermière · pièce de 1,5 kg')
    expect(within(region).getByText('AOP')).toBeInTheDocument()
    expect(String(fetch.mock.calls[0][0])).toBe('/api/supplied-products/search?productType=tomme-de-savoie&label=&km=0')

    fetch.mockImplementation(async () => new Response('[]', { status: 200 }))
    await user.selectOptions(within(region).getByLabelText('Label'), 'ab')
    await user.selectOptions(within(region).getByLabelText('Distance'), '50')
    expect(
      await within(region).findByText('Aucun producteur ne vend ce produit avec ces critères.'),
    ).toBeInTheDocument()
    expect(String(fetch.mock.calls.at(-1)?.[0])).toBe(
      '/api/supplied-products/search?productType=tomme-de-savoie&label=ab&km=50',
    )
  })

  it('without a type (under the dashboard’s map), finds producers by family too', async () => {
    state.families = [{ _id: 'fromages', name: 'Fromages' }]
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => new Response(JSON.stringify([dairy]), { status: 200 }))
    const user = userEvent.setup()
    renderWithProviders(<NearbyProducers />)
    await user.click(screen.getByRole('button', { name: 'Trouver des producteurs' }))
    const region = screen.getByRole('region', { name: 'Producteurs' })
    await user.selectOptions(within(region).getByLabelText('Famille'), 'fromages')
    await user.selectOptions(within(region).getByLabelText('Label'), 'aop')
    expect(await within(region).findByRole('link', { name: 'Fruitière des Aravis' })).toBeInTheDocument()
    expect(String(fetch.mock.calls.at(-1)?.[0])).toBe('/api/supplied-products/search?family=fromages&label=aop&km=0')
  })

  it('says a distance in whole km, nothing for a producer not placed', () => {
    expect(distanceText(30.4)).toBe('à 30 km')
    expect(distanceText(1234.5)).toBe('à 1\u202f235 km')
    expect(distanceText(null)).toBe('')
  })
})
