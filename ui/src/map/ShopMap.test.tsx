import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetPlaces } from '../store/places'
import { ANNECY, MARSEILLE_1, near, stubPlaces } from '../test/places'
import { renderWithProviders } from '../test/render'
import type { DistributorEntry } from '../types'
import { ShopMap, scoreTooltip } from './ShopMap'

const shops: DistributorEntry[] = [
  { _id: 'd1', name: 'Épicerie du Lac', email: 'lac@x.fr', latitude: '45.9009', longitude: '6.1265' },
  { _id: 'd2', name: 'Primeurs du Genevois', email: 'gen@x.fr', latitude: '46.1934', longitude: '6.2342' },
  { _id: 'd3', name: 'Sans position', email: 'nulle@x.fr', latitude: '', longitude: '6.2' },
  { _id: 'd4', name: 'Halles de Brest', email: 'brest@x.fr', latitude: '48.39', longitude: '-4.48' },
]

type Success = (p: { coords: { latitude: number; longitude: number } }) => void
type Failure = (e: { code: number; message: string }) => void

/** Replaces the browser's geolocation for one test (jsdom has none). */
function geolocation(answer: ((ok: Success, fail: Failure) => void) | undefined) {
  const value = answer ? { getCurrentPosition: vi.fn((ok: Success, fail: Failure) => answer(ok, fail)) } : undefined
  Object.defineProperty(navigator, 'geolocation', { value, configurable: true })
  return value
}

afterEach(() => {
  Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true })
})

const map = () => screen.getByTestId('shop-map')
const marker = (id: string) => map().querySelector(`[data-shop-id="${id}"]`) as SVGGElement | null

describe('ShopMap', () => {
  it('draws shops with coordinates, with their names, and cities of the reference', () => {
    geolocation(undefined)
    renderWithProviders(<ShopMap shops={shops} scores={{ d1: 1200 }} />)
    expect(marker('d1')).not.toBeNull()
    expect(marker('d2')).not.toBeNull()
    expect(marker('d3')).toBeNull()
    expect(within(map()).getByText('Épicerie du Lac')).toBeInTheDocument()
    // A shop far from the view (Brest) is not drawn until the map gets there.
    expect(marker('d4')).toBeNull()
    expect(within(map()).getByText('Chambéry')).toBeInTheDocument()
    // Far from the default centre: not drawn.
    expect(within(map()).queryByText('Brest')).not.toBeInTheDocument()
    // At most three cities of a department, here Haute-Savoie.
    expect(
      within(map())
        .getAllByTestId('city-marker')
        .filter((g) => ['Annecy', 'Thonon-les-Bains', 'Annemasse'].includes(g.getAttribute('aria-label')!)),
    ).toHaveLength(3)
  })

  it('lets a producer open a shop by click or keyboard', async () => {
    geolocation(undefined)
    const open = vi.fn()
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shops={shops} scores={{}} onShopClick={open} />)
    const pin = screen.getByRole('link', { name: 'Épicerie du Lac' })
    expect(pin).toHaveStyle({ cursor: 'pointer' })
    await user.click(pin)
    expect(open).toHaveBeenCalledWith('d1')
    screen.getByRole('link', { name: 'Primeurs du Genevois' }).focus()
    await user.keyboard('{Enter}')
    expect(open).toHaveBeenLastCalledWith('d2')
  })

  it('gives a shop inert markers', async () => {
    geolocation(undefined)
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shops={shops} scores={{}} ownShopId="d1" />)
    expect(screen.queryAllByRole('link')).toHaveLength(0)
    expect(marker('d1')).toHaveStyle({ cursor: 'default' })
    expect(marker('d1')).not.toHaveAttribute('tabindex')
    await user.click(marker('d1')!)
    // Its own pin is drawn apart.
    expect(marker('d1')!.querySelector('path')).toHaveAttribute('fill', '#e8590c')
    expect(marker('d2')!.querySelector('path')).toHaveAttribute('fill', '#2f9e44')
  })

  it('shows the real score in the tooltip, or the name alone without one', () => {
    geolocation(undefined)
    renderWithProviders(<ShopMap shops={shops} scores={{ d1: 1200 }} />)
    fireEvent.pointerEnter(marker('d1')!)
    expect(screen.getByRole('tooltip')).toHaveTextContent('Score de Épicerie du Lac : 1200pts')
    fireEvent.pointerLeave(marker('d1')!)
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument()
    fireEvent.pointerEnter(marker('d2')!)
    expect(screen.getByRole('tooltip')).toHaveTextContent(/^Primeurs du Genevois$/)
    expect(scoreTooltip('A', 5)).toBe('Score de A : 5pts')
  })

  it('zooms in and out within the bounds', async () => {
    geolocation(undefined)
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shops={shops} />)
    const zoomIn = screen.getByRole('button', { name: 'Zoom avant' })
    const zoomOut = screen.getByRole('button', { name: 'Zoom arrière' })
    expect(map()).toHaveAttribute('data-zoom', '1')
    await user.click(zoomIn)
    await user.click(zoomIn)
    expect(map()).toHaveAttribute('data-zoom', '4')
    expect(zoomIn).toBeDisabled()
    await user.click(zoomOut)
    await user.click(zoomOut)
    await user.click(zoomOut)
    expect(map()).toHaveAttribute('data-zoom', '0.5')
    expect(zoomOut).toBeDisabled()
  })

  it('stays at the default centre with re-centre disabled when geolocation is missing or denied', () => {
    geolocation(undefined)
    const { unmount } = renderWithProviders(<ShopMap shops={shops} />)
    expect(map()).toHaveAttribute('data-center', '6.1213,45.9016')
    expect(screen.getByRole('button', { name: 'Centrer sur ma position' })).toBeDisabled()
    unmount()
    const geo = geolocation((_ok, fail) => fail({ code: 1, message: 'User denied Geolocation' }))
    renderWithProviders(<ShopMap shops={shops} />)
    expect(geo!.getCurrentPosition).toHaveBeenCalledTimes(1)
    expect(map()).toHaveAttribute('data-center', '6.1213,45.9016')
    expect(screen.getByRole('button', { name: 'Centrer sur ma position' })).toBeDisabled()
  })

  it('keeps re-centre disabled until the position is known, then centres on it', async () => {
    let answer: Success | null = null
    geolocation((ok) => {
      answer = ok
    })
    renderWithProviders(<ShopMap shops={shops} />)
    const recenter = screen.getByRole('button', { name: 'Centrer sur ma position' })
    expect(recenter).toBeDisabled()
    act(() => answer!({ coords: { latitude: 46.0, longitude: 6.25 } }))
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    expect(recenter).toBeEnabled()
  })

  it('moves the centre by dragging, and re-centres on the position', async () => {
    geolocation((ok) => ok({ coords: { latitude: 46.0, longitude: 6.25 } }))
    const open = vi.fn()
    renderWithProviders(<ShopMap shops={shops} onShopClick={open} />)
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    fireEvent.pointerDown(map(), { button: 0, clientX: 300, clientY: 200, pointerId: 1 })
    fireEvent.pointerMove(map(), { clientX: 302, clientY: 201, pointerId: 1 }) // under the drag threshold
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    fireEvent.pointerMove(map(), { clientX: 400, clientY: 250, pointerId: 1 })
    fireEvent.pointerUp(map(), { clientX: 400, clientY: 250, pointerId: 1 })
    const [lon, lat] = map().getAttribute('data-center')!.split(',').map(Number)
    // The map follows the pointer (right and down): the view shows what lies west and north.
    expect(lon).toBeLessThan(6.25)
    expect(lat).toBeGreaterThan(46.0)
    // The click that ends a drag does not open a shop.
    fireEvent.click(marker('d1')!)
    expect(open).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Centrer sur ma position' }))
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
  })

  it('draws a producer’s farm from its profile', () => {
    geolocation(undefined)
    renderWithProviders(<ShopMap shops={[]} home={{ name: 'Ferme des Glières', lonLat: [6.25, 46.0] }} />)
    expect(screen.getByTestId('home-marker')).toHaveAttribute('aria-label', 'Ferme des Glières (vous)')
  })
})

describe('ShopMap search by postal code', () => {
  beforeEach(() => resetPlaces())
  const withThones: DistributorEntry[] = [
    ...shops,
    { _id: 'd5', name: 'Le Panier des Aravis', email: '', latitude: '45.8817', longitude: '6.3250' },
  ]
  const search = () => screen.getByRole('combobox', { name: 'Recherche par code postal' })
  const nearby = () => screen.getByRole('region', { name: /Magasins à moins de 30 km de/ })

  it('finds a town from a postal code, centres on it and lists the shops within 30 km by distance', async () => {
    geolocation(undefined)
    const user = userEvent.setup()
    renderWithProviders(
      <ShopMap shops={withThones} scores={{}} onShopClick={() => {}} shopLink={(id) => `/prod/needs/${id}`} />,
    )
    stubPlaces({ '74000': [ANNECY] })
    await user.type(search(), '74000')
    const listbox = await screen.findByRole('listbox', { name: 'Communes trouvées' })
    await within(listbox).findByRole('option')
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Annecy (74000)'])
    await user.keyboard('{Enter}')
    expect(search()).toHaveValue('Annecy (74000)')
    expect(map()).toHaveAttribute('data-center', '6.1257,45.9088')
    expect(map()).toHaveAttribute('data-zoom', '2')
    expect(screen.getByTestId('search-area')).toBeInTheDocument()
    expect(within(nearby()).getByRole('status')).toHaveTextContent('2 magasins à moins de 30 km de Annecy (74000)')
    // Nearest first; Annemasse's shop (33 km) and the shop without position are not listed.
    const items = within(screen.getByTestId('nearby-shops')).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual([
      'Épicerie du Lac0,9 kmVoir ses besoins',
      'Le Panier des Aravis15,7 kmVoir ses besoins',
    ])
    expect(within(items[1]).getByRole('link', { name: 'Voir les besoins de Le Panier des Aravis' })).toHaveAttribute(
      'href',
      '/prod/needs/d5',
    )
  })

  it('forgives accents, case and a typo in a town, with the keyboard alone', async () => {
    geolocation(undefined)
    const user = userEvent.setup()
    stubPlaces({ anecy: [ANNECY] })
    renderWithProviders(<ShopMap shops={withThones} scores={{}} ownShopId="d1" />)
    await user.type(search(), 'ANECY')
    await screen.findByRole('option', { name: 'Annecy (74000)' })
    await user.keyboard('{ArrowDown}{Enter}')
    expect(within(nearby()).getByRole('status')).toHaveTextContent('2 magasins à moins de 30 km de Annecy (74000)')
    // A shop sees names only, its own marked.
    expect(within(nearby()).queryAllByRole('link')).toHaveLength(0)
    expect(within(nearby()).getByText('Épicerie du Lac (vous)')).toBeInTheDocument()
    await user.click(within(nearby()).getByRole('button', { name: 'Effacer la recherche' }))
    expect(screen.queryByRole('region', { name: /Magasins à moins de 30 km/ })).not.toBeInTheDocument()
    expect(screen.queryByTestId('search-area')).not.toBeInTheDocument()
  })

  it('says when no commune matches, and when no shop is near', async () => {
    geolocation(undefined)
    stubPlaces({ '13001': [MARSEILLE_1] })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shops={shops} scores={{}} />)
    await user.type(search(), 'zzzzzz')
    expect(await screen.findByText('Aucune commune ne correspond')).toBeInTheDocument()
    await user.clear(search())
    await user.type(search(), '13001')
    await user.click(await screen.findByRole('option', { name: 'Marseille 1er Arrondissement (13001)' }))
    expect(within(nearby()).getByRole('status')).toHaveTextContent(
      'Aucun magasin à moins de 30 km de Marseille 1er Arrondissement (13001)',
    )
  })

  it('searches around a commune of the nearest postal code for a code of no commune (CEDEX)', async () => {
    geolocation(undefined)
    stubPlaces({ '74011': [near(ANNECY)] })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shops={shops} scores={{}} />)
    await user.type(search(), '74011')
    await user.click(await screen.findByRole('option', { name: /Annecy \(74000\)\s*code postal voisin/ }))
    expect(within(nearby()).getByText(/Aucune commune n'a ce code postal \(code CEDEX \?\)/)).toBeInTheDocument()
  })
})
