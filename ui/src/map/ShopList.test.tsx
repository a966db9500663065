import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../test/render'
import type { DistributorEntry } from '../types'
import { ShopList, listedShops, nearestCity } from './ShopList'

const shops: DistributorEntry[] = [
  { _id: 'd2', name: 'Primeurs du Genevois', email: 'gen@x.fr', latitude: '46.1934', longitude: '6.2342' },
  { _id: 'd1', name: 'Épicerie du Lac', email: 'lac@x.fr', latitude: '45.9009', longitude: '6.1265' },
  { _id: 'd3', name: 'Sans position', email: 'nulle@x.fr', latitude: '', longitude: '6.2' },
]

describe('the shops of the map as a list', () => {
  it('holds the shops the map draws, by name, each in its nearest town', () => {
    expect(nearestCity([6.1265, 45.9009])?.name).toBe('Annecy')
    expect(listedShops(shops).map((r) => [r.shop.name, r.town])).toEqual([
      ['Épicerie du Lac', 'Annecy'],
      ['Primeurs du Genevois', expect.any(String)],
    ])
  })

  it('opens from its button (aria-expanded) and gives a producer the link a pin click follows', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ShopList shops={shops} shopLink={(id) => `/prod/needs/${id}`} />)
    const button = screen.getByRole('button', { name: 'Liste des magasins de la carte (2)' })
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByTestId('shop-list')).toBeNull()
    button.focus()
    await user.keyboard('{Enter}')
    expect(screen.getByRole('button', { name: 'Masquer la liste des magasins' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    const list = screen.getByTestId('shop-list')
    expect(within(list).getByRole('link', { name: 'Voir les besoins de Épicerie du Lac' })).toHaveAttribute(
      'href',
      '/prod/needs/d1',
    )
    expect(within(list).queryByText(/Sans position/)).toBeNull()
  })

  it('names the shop itself, without links, for a shop', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ShopList shops={shops} ownShopId="d1" />)
    await user.click(screen.getByRole('button', { name: /Liste des magasins/ }))
    expect(screen.getByText('Épicerie du Lac (vous)')).toBeInTheDocument()
    expect(screen.queryByRole('link')).toBeNull()
  })
})
