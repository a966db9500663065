import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render'
import type { MapCluster } from '../types'
import { type ListedShop, ShopList, clusterButton, listedShops, nearestCity } from './ShopList'

const shops: ListedShop[] = [
  { _id: 'd2', name: 'Primeurs du Genevois', lonLat: [6.2342, 46.1934] },
  { _id: 'd1', name: 'Épicerie du Lac', lonLat: [6.1265, 45.9009] },
]

const cluster = (count: number, lat: number, lon: number): MapCluster => ({
  count,
  latitude: lat,
  longitude: lon,
  south: lat - 0.01,
  west: lon - 0.01,
  north: lat + 0.01,
  east: lon + 0.01,
})

describe('the shops of the map as a list', () => {
  it('holds the shops in view, by name, each in its nearest town', () => {
    expect(nearestCity([6.1265, 45.9009])?.name).toBe('Annecy')
    expect(listedShops(shops).map((r) => [r.shop.name, r.town])).toEqual([
      ['Épicerie du Lac', 'Annecy'],
      ['Primeurs du Genevois', expect.any(String)],
    ])
  })

  it('opens from its button (aria-expanded) and gives a producer the link a pin click follows', async () => {
    const user = userEvent.setup()
    renderWithProviders(
      <ShopList shops={shops} clusters={[]} shopLink={(id) => `/prod/needs/${id}`} onCluster={() => {}} />,
    )
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
  })

  it('names the shop itself, without links, for a shop', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ShopList shops={shops} clusters={[]} ownShopId="d1" onCluster={() => {}} />)
    await user.click(screen.getByRole('button', { name: /Liste des magasins/ }))
    expect(screen.getByText('Épicerie du Lac (vous)')).toBeInTheDocument()
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('counts the shops of the clusters in view and offers to zoom in on each, the largest first', async () => {
    const onCluster = vi.fn()
    const user = userEvent.setup()
    const groups = [cluster(12, 45.9, 6.13), cluster(340, 45.76, 4.84), cluster(1, 45.19, 5.72)]
    renderWithProviders(<ShopList shops={[]} clusters={groups} onCluster={onCluster} />)
    await user.click(screen.getByRole('button', { name: 'Liste des magasins de la carte (353)' }))
    const buttons = within(screen.getByTestId('cluster-list')).getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Zoomer sur les 340 magasins autour de Lyon',
      "Zoomer sur les 12 magasins autour d'Annecy",
      'Zoomer sur le magasin autour de Grenoble',
    ])
    await user.click(buttons[1])
    expect(onCluster).toHaveBeenCalledWith(groups[0])
    expect(clusterButton(cluster(2, 45.9, 6.13), [])).toBe('Zoomer sur les 2 magasins')
  })

  it('says when the view holds no shop', async () => {
    const user = userEvent.setup()
    renderWithProviders(<ShopList shops={[]} clusters={[]} onCluster={() => {}} />)
    await user.click(screen.getByRole('button', { name: 'Liste des magasins de la carte (0)' }))
    expect(screen.getByText('Aucun magasin dans cette zone de la carte.')).toBeInTheDocument()
  })
})
