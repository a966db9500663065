import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { geoBounds, geoContains } from 'd3-geo'
import { OVERSEAS } from '../test/places'
import { renderWithProviders } from '../test/render'
import type { MapCluster } from '../types'
import { CITIES, distanceKm } from './cities'
import type { LonLat } from './geo'
import { DEPARTMENTS } from './shapes'
import { type ListedShop, NEAREST_CITY_MAX_KM, ShopList, clusterButton, listedShops, nearestCity } from './ShopList'

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

  it('names no town for an overseas shop: the towns of the map are metropolitan France’s', async () => {
    const islands = OVERSEAS.map((p) => ({
      _id: p.code,
      name: `Épicerie de ${p.name}`,
      lonLat: [p.longitude, p.latitude] as LonLat,
    }))
    for (const { shop, town } of listedShops(islands)) expect(town, shop.name).toBeNull()
    expect(clusterButton(cluster(12, OVERSEAS[0].latitude, OVERSEAS[0].longitude))).toBe('Zoomer sur les 12 magasins')
    const user = userEvent.setup()
    renderWithProviders(<ShopList shops={islands.slice(0, 1)} clusters={[]} onCluster={() => {}} />)
    await user.click(screen.getByRole('button', { name: 'Liste des magasins de la carte (1)' }))
    expect(within(screen.getByTestId('shop-list')).getByRole('listitem')).toHaveTextContent(
      /^Épicerie de Pointe-à-Pitre$/,
    )
  })

  it('has a town within reach of every point of metropolitan France', () => {
    // A grid of a tenth of a degree (8 to 11 km) over the departments: the farthest from the towns of the map.
    const departments = DEPARTMENTS.map((d) => ({ d, bounds: geoBounds(d) }))
    let farthest = 0
    let points = 0
    for (let lat = 41.3; lat <= 51.1; lat += 0.1) {
      for (let lon = -5.2; lon <= 9.6; lon += 0.1) {
        const p: LonLat = [lon, lat]
        const inside = departments.some(
          ({ d, bounds: [[w, s], [e, n]] }) => lon >= w && lon <= e && lat >= s && lat <= n && geoContains(d, p),
        )
        if (!inside) continue
        points++
        farthest = Math.max(farthest, distanceKm(p, nearestCity(p, CITIES)?.lonLat ?? [0, 0]))
      }
    }
    expect(points).toBeGreaterThan(5000)
    expect(farthest).toBeGreaterThan(20)
    expect(farthest).toBeLessThan(NEAREST_CITY_MAX_KM * 0.75)
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
    expect(within(list).getByRole('link', { name: 'Voir ses besoins : Épicerie du Lac' })).toHaveAttribute(
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
