import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetPlaces } from '../store/places'
import { MAP_DELAY, resetShopMap } from '../store/shopmap'
import { ANNECY, CAYENNE, MARSEILLE_1, OVERSEAS, SAINT_DENIS_REUNION, near } from '../test/places'
import { asPhone } from '../test/phone'
import { renderWithProviders } from '../test/render'
import { type StubShop, mapRequests, stubMap } from '../test/shopmap'
import { MAP, makeProjection, visibleBox } from './geo'
import { CLUSTER_CROWDED, ShopMap, type ShopMapProps, scoreTooltip } from './ShopMap'

const shops: StubShop[] = [
  { _id: 'd1', name: 'Épicerie du Lac', email: 'lac@x.fr', latitude: 45.9009, longitude: 6.1265, score: 1200 },
  { _id: 'd2', name: 'Primeurs du Genevois', latitude: 46.1934, longitude: 6.2342, score: 0 },
  { _id: 'd4', name: 'Halles de Brest', latitude: 48.39, longitude: -4.48 },
]

type Success = (p: { coords: { latitude: number; longitude: number } }) => void
type Failure = (e: { code: number; message: string }) => void

/** Replaces the browser's geolocation for one test (jsdom has none). */
function geolocation(answer: ((ok: Success, fail: Failure) => void) | undefined) {
  const value = answer ? { getCurrentPosition: vi.fn((ok: Success, fail: Failure) => answer(ok, fail)) } : undefined
  Object.defineProperty(navigator, 'geolocation', { value, configurable: true })
  return value
}

beforeEach(() => {
  resetShopMap()
  resetPlaces()
  geolocation(undefined)
})

afterEach(() => {
  Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true })
})

const map = () => screen.getByTestId('shop-map')
const marker = (id: string) => map().querySelector(`[data-shop-id="${id}"]`) as SVGGElement | null
const pin = async (id: string) => {
  await waitFor(() => expect(marker(id)).not.toBeNull())
  return marker(id)!
}

/** 60 shops on a disc of about 55 km around Annecy, named "Magasin 01"… */
const crowd: StubShop[] = Array.from({ length: 60 }, (_, i) => {
  const a = i * 2.399963
  const r = 0.5 * Math.sqrt((i + 1) / 60)
  return {
    _id: `m${i + 1}`,
    name: `Magasin ${String(i + 1).padStart(2, '0')}`,
    latitude: 45.9 + r * Math.sin(a),
    longitude: 6.12 + 1.4 * r * Math.cos(a),
  }
})

describe('ShopMap', () => {
  it('asks the server for the shops of what it shows, and draws them with their names among the cities', async () => {
    const fetch = stubMap(shops)
    renderWithProviders(<ShopMap />)
    await pin('d1')
    expect(marker('d2')).not.toBeNull()
    expect(within(map()).getByText('Épicerie du Lac')).toBeInTheDocument()
    // The area asked holds the default centre at zoom 1; Brest is out of it.
    const [asked] = mapRequests(fetch)
    expect(asked.zoom).toBe(1)
    expect(asked.south).toBeLessThan(45.9016)
    expect(asked.north).toBeGreaterThan(45.9016)
    expect(asked.west).toBeLessThan(6.1213)
    expect(asked.east).toBeGreaterThan(6.1213)
    expect(asked.west).toBeGreaterThan(3)
    expect(marker('d4')).toBeNull()
    // One request once the map rests, whatever it measured meanwhile.
    expect(mapRequests(fetch)).toHaveLength(1)
    expect(within(map()).getByText('Chambéry')).toBeInTheDocument()
    expect(within(map()).queryByText('Brest')).not.toBeInTheDocument()
    // The outlines of the departments in view only: Haute-Savoie's, not Finistère's.
    const outlines = [...map().querySelectorAll('path > title')].map((t) => t.textContent)
    expect(outlines).toContain('Haute-Savoie (74)')
    expect(outlines).not.toContain('Finistère (29)')
    // At most three cities of a department, here Haute-Savoie.
    expect(
      within(map())
        .getAllByTestId('city-marker')
        .filter((g) => ['Annecy', 'Thonon-les-Bains', 'Annemasse'].includes(g.getAttribute('aria-label')!)),
    ).toHaveLength(3)
  })

  it('asks for its first area at once, at the width laid out, and a moved area once it rests', async () => {
    vi.useFakeTimers()
    const laidOut = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockReturnValue(new DOMRect(0, 0, 500, 440))
    try {
      const fetch = stubMap(shops)
      renderWithProviders(<ShopMap />)
      await act(() => vi.advanceTimersByTimeAsync(1))
      // Asked without waiting for the map to rest (MAP_DELAY): nothing moved it.
      const [first, ...others] = mapRequests(fetch)
      expect(others).toHaveLength(0)
      // 500 pixels and their margins, not the fallback's 800: a narrower area around Annecy.
      const wide = makeProjection(MAP.center, 1, 800, 440)
      const narrow = makeProjection(MAP.center, 1, 500, 440)
      expect(first.west).toBeCloseTo(visibleBox(narrow, 500, 440, 80)!.west, 3)
      expect(first.west).toBeGreaterThan(visibleBox(wide, 800, 440, 80)!.west + 0.5)
      // Zoomed, the next area waits for the map to rest.
      fireEvent.click(screen.getByRole('button', { name: 'Zoom avant' }))
      await act(() => vi.advanceTimersByTimeAsync(MAP_DELAY - 10))
      expect(mapRequests(fetch)).toHaveLength(1)
      await act(() => vi.advanceTimersByTimeAsync(20))
      expect(mapRequests(fetch).map((b) => b.zoom)).toEqual([1, 2])
    } finally {
      laidOut.mockRestore()
      vi.useRealTimers()
    }
  })

  it('lets a producer open a shop by click or keyboard', async () => {
    stubMap(shops)
    const open = vi.fn()
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={open} />)
    const link = await screen.findByRole('link', { name: 'Épicerie du Lac' })
    expect(link).toHaveStyle({ cursor: 'pointer' })
    await user.click(link)
    expect(open).toHaveBeenCalledWith('d1')
    screen.getByRole('link', { name: 'Primeurs du Genevois' }).focus()
    await user.keyboard('{Enter}')
    expect(open).toHaveBeenLastCalledWith('d2')
  })

  it('gives a shop inert markers, its own drawn apart where its profile places it', async () => {
    stubMap(shops)
    const user = userEvent.setup()
    // The shop's profile, saved twice: moved and renamed, then without a position.
    const profiles: ShopMapProps['ownShop'][] = [
      { name: 'Épicerie du Lac', lonLat: [6.1265, 45.9009] },
      { name: 'Épicerie du Port', lonLat: [6.2, 45.95] },
      { name: 'Épicerie du Port', lonLat: null },
    ]
    function Saved() {
      const [i, setI] = useState(0)
      return (
        <>
          <button type="button" onClick={() => setI(i + 1)}>
            Enregistrer
          </button>
          <ShopMap ownShopId="d1" ownShop={profiles[i]} />
        </>
      )
    }
    renderWithProviders(<Saved />)
    await pin('d2')
    expect(screen.queryAllByRole('link')).toHaveLength(0)
    expect(marker('d1')).toHaveStyle({ cursor: 'default' })
    expect(marker('d1')).not.toHaveAttribute('tabindex')
    await user.click(marker('d1')!)
    expect(marker('d1')!.querySelector('path')).toHaveAttribute('fill', '#e8590c')
    expect(marker('d2')!.querySelector('path')).toHaveAttribute('fill', '#2f9e44')
    const at = marker('d1')!.getAttribute('transform')
    // A saved profile moves and renames it at once; without a position it leaves the map.
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(marker('d1')).toHaveAttribute('aria-label', 'Épicerie du Port')
    expect(marker('d1')!.getAttribute('transform')).not.toBe(at)
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(marker('d1')).toBeNull()
  })

  it('shows the real score from the server in the tooltip', async () => {
    stubMap(shops)
    renderWithProviders(<ShopMap />)
    fireEvent.pointerEnter(await pin('d1'))
    expect(screen.getByRole('tooltip')).toHaveTextContent("Score d'Épicerie du Lac : 1200pts")
    fireEvent.pointerLeave(marker('d1')!)
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument()
    fireEvent.pointerEnter(marker('d2')!)
    expect(screen.getByRole('tooltip')).toHaveTextContent('Score de Primeurs du Genevois : 0pts')
    expect(scoreTooltip('Ferme', 5)).toBe('Score de Ferme : 5pts')
    expect(scoreTooltip('Annecy Primeurs', 5)).toBe("Score d'Annecy Primeurs : 5pts")
    expect(scoreTooltip('Le Panier des Aravis', 5)).toBe('Score du Panier des Aravis : 5pts')
    expect(scoreTooltip('Halle de Seynod', 5)).toBe('Score de Halle de Seynod : 5pts')
  })

  it('gives the viewer’s own shop its name alone until the server knows its score', async () => {
    stubMap([])
    renderWithProviders(<ShopMap ownShopId="d9" ownShop={{ name: 'Nouveau magasin', lonLat: [6.13, 45.9] }} />)
    fireEvent.pointerEnter(await pin('d9'))
    expect(screen.getByRole('tooltip')).toHaveTextContent(/^Nouveau magasin$/)
  })

  it('zooms in and out within the bounds, asking for each new view', async () => {
    const fetch = stubMap(shops)
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    await pin('d1')
    const zoomIn = screen.getByRole('button', { name: 'Zoom avant' })
    const zoomOut = screen.getByRole('button', { name: 'Zoom arrière' })
    expect(map()).toHaveAttribute('data-zoom', '1')
    await user.click(zoomIn)
    await user.click(zoomIn)
    expect(map()).toHaveAttribute('data-zoom', '4')
    expect(zoomIn).toBeDisabled()
    await waitFor(() => expect(mapRequests(fetch).at(-1)?.zoom).toBe(4))
    // The view at zoom 4 is smaller than at zoom 1.
    const [first] = mapRequests(fetch)
    const last = mapRequests(fetch).at(-1)!
    expect(last.north - last.south).toBeLessThan((first.north - first.south) / 3)
    await user.click(zoomOut)
    await user.click(zoomOut)
    await user.click(zoomOut)
    expect(map()).toHaveAttribute('data-zoom', '0.5')
    expect(zoomOut).toBeDisabled()
    await waitFor(() => expect(mapRequests(fetch).at(-1)?.zoom).toBe(0.5))
  })

  it('draws clusters where the area holds too many shops, and a click zooms in on one to its shops', async () => {
    const fetch = stubMap(crowd, { limit: 40 })
    const open = vi.fn()
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={open} />)
    const clusters = await screen.findAllByRole('button', { name: /magasins? : zoomer sur ce groupe/ })
    const counts = clusters.map((c) => Number(c.getAttribute('data-count')))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(60)
    expect(screen.queryAllByRole('link')).toHaveLength(0)
    // The largest cluster, zoomed in on: its shops.
    const largest = clusters[counts.indexOf(Math.max(...counts))]
    await user.click(largest)
    expect(Number(map().getAttribute('data-zoom'))).toBeGreaterThan(1)
    await waitFor(() => expect(mapRequests(fetch).at(-1)?.zoom).toBe(Number(map().getAttribute('data-zoom'))))
    const links = await screen.findAllByRole('link')
    expect(links.length).toBeGreaterThan(0)
    expect(links.length).toBeLessThanOrEqual(40)
    await user.click(links[0])
    expect(open).toHaveBeenCalledWith(expect.stringMatching(/^m\d+$/))
  })

  it('zooms in on a cluster with the keyboard', async () => {
    stubMap(crowd, { limit: 20 })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    const [cluster] = await screen.findAllByRole('button', { name: /zoomer sur ce groupe/ })
    cluster.focus()
    await user.keyboard('{Enter}')
    expect(Number(map().getAttribute('data-zoom'))).toBeGreaterThan(1)
  })

  it('lists the shops of a cluster tapped at the largest zoom, from the map or the list under it', async () => {
    const fetch = stubMap(crowd, { limit: 5 })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shopLink={(id) => `/prod/needs/${id}`} />)
    await screen.findAllByRole('button', { name: /zoomer sur ce groupe$/ })
    await user.click(screen.getByRole('button', { name: 'Zoom avant' }))
    await user.click(screen.getByRole('button', { name: 'Zoom avant' }))
    expect(map()).toHaveAttribute('data-zoom', '4')
    // The answer for the largest zoom drawn.
    await waitFor(() => expect(mapRequests(fetch).at(-1)?.zoom).toBe(4))
    await waitFor(() => expect(map()).toHaveAttribute('aria-busy', 'false'))
    // At the largest zoom a cluster no longer zooms: it lists its shops.
    const clusters = await screen.findAllByRole('button', { name: /magasins? : voir la liste de ce groupe$/ })
    expect(screen.queryAllByRole('button', { name: /zoomer sur ce groupe/ })).toHaveLength(0)
    const cluster = clusters[0]
    const count = Number(cluster.getAttribute('data-count'))
    expect(cluster).toHaveAttribute('aria-expanded', 'false')
    const center = map().getAttribute('data-center')
    await user.click(cluster)
    const title = count === 1 ? '1 magasin dans ce groupe' : `${count} magasins dans ce groupe`
    const list = await screen.findByRole('region', { name: title })
    await waitFor(() =>
      expect(within(list).getAllByRole('link', { name: /^Voir ses besoins : Magasin \d\d$/ })).toHaveLength(count),
    )
    expect(within(list).getAllByRole('link')[0]).toHaveAttribute('href', expect.stringMatching(/^\/prod\/needs\/m\d+$/))
    // The map stays where it was, at its zoom; the cluster says its list is open.
    expect(map()).toHaveAttribute('data-zoom', '4')
    expect(map().getAttribute('data-center')).toBe(center)
    const opened = screen
      .getAllByRole('button', { name: /voir la liste de ce groupe$/ })
      .find((c) => c.getAttribute('aria-expanded') === 'true')!
    expect(opened).toHaveAttribute('aria-controls', list.id)
    // Asked of the server: the box of the cluster's shops, at the largest zoom.
    expect(mapRequests(fetch).at(-1)!.zoom).toBe(4)
    // Its button again closes the list; the list under the map opens it too.
    await user.click(opened)
    expect(screen.queryByRole('region', { name: title })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /^Liste des magasins de la carte/ }))
    const groups = within(screen.getByTestId('cluster-list')).getAllByRole('button')
    expect(groups[0]).toHaveAccessibleName(/^Voir (les \d+ magasins|le magasin) autour d/)
    await user.click(groups[0])
    const again = await screen.findByRole('region', { name: /dans ce groupe$/ })
    await user.click(within(again).getByRole('button', { name: 'Fermer la liste de ces magasins' }))
    expect(screen.queryByRole('region', { name: /dans ce groupe$/ })).not.toBeInTheDocument()
  })

  it('says when a cluster at the largest zoom holds more shops than the server lists', async () => {
    const thones = { latitude: 45.8817, longitude: 6.325 }
    const crowded: StubShop[] = Array.from({ length: 8 }, (_, i) => ({ _id: `c${i}`, name: `Halle ${i}`, ...thones }))
    stubMap(crowded, { limit: 5 })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    await screen.findByRole('button', { name: '8 magasins : zoomer sur ce groupe' })
    await user.click(screen.getByRole('button', { name: 'Zoom avant' }))
    await user.click(screen.getByRole('button', { name: 'Zoom avant' }))
    await user.click(await screen.findByRole('button', { name: '8 magasins : voir la liste de ce groupe' }))
    const list = await screen.findByRole('region', { name: '8 magasins dans ce groupe' })
    expect(await within(list).findByText(CLUSTER_CROWDED)).toBeInTheDocument()
    // Escape closes it.
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('region', { name: '8 magasins dans ce groupe' })).not.toBeInTheDocument()
  })

  it('lists what is in view under the map, clusters as buttons that zoom in', async () => {
    stubMap(crowd, { limit: 40 })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap shopLink={(id) => `/prod/needs/${id}`} />)
    await screen.findAllByRole('button', { name: /zoomer sur ce groupe/ })
    await user.click(screen.getByRole('button', { name: 'Liste des magasins de la carte (60)' }))
    const groups = within(screen.getByTestId('cluster-list')).getAllByRole('button')
    expect(groups[0]).toHaveAccessibleName(/^Zoomer sur (les \d+ magasins|le magasin) autour d/)
    await user.click(groups[0])
    expect(Number(map().getAttribute('data-zoom'))).toBeGreaterThan(1)
    const list = await screen.findByTestId('shop-list')
    const named = within(list).getAllByRole('listitem')
    expect(named.length).toBeGreaterThan(0)
    expect(within(named[0]).getByRole('link')).toHaveAttribute('href', expect.stringMatching(/^\/prod\/needs\/m\d+$/))
    // Only what is in view: the shops drawn inside the map's frame.
    const drawn = map().querySelectorAll('[data-testid="shop-marker"]').length
    expect(named.length).toBeLessThanOrEqual(drawn)
  })

  it('says when the area could not be loaded, and loads it again on demand', async () => {
    let failing = true
    stubMap(shops, { fail: () => failing })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    expect(await screen.findByRole('alert')).toHaveTextContent("Les magasins de cette zone n'ont pas pu être chargés.")
    failing = false
    await user.click(screen.getByRole('button', { name: 'Réessayer de charger les magasins de la zone' }))
    await pin('d1')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('stays at the default centre with re-centre disabled when geolocation is missing or denied', () => {
    stubMap(shops)
    const { unmount } = renderWithProviders(<ShopMap />)
    expect(map()).toHaveAttribute('data-center', '6.1213,45.9016')
    expect(screen.getByRole('button', { name: 'Centrer sur ma position' })).toBeDisabled()
    unmount()
    const geo = geolocation((_ok, fail) => fail({ code: 1, message: 'User denied Geolocation' }))
    renderWithProviders(<ShopMap />)
    expect(geo!.getCurrentPosition).toHaveBeenCalledTimes(1)
    expect(map()).toHaveAttribute('data-center', '6.1213,45.9016')
    expect(screen.getByRole('button', { name: 'Centrer sur ma position' })).toBeDisabled()
  })

  it('keeps re-centre disabled until the position is known, then centres on it', () => {
    stubMap(shops)
    let answer: Success | null = null
    geolocation((ok) => {
      answer = ok
    })
    renderWithProviders(<ShopMap />)
    const recenter = screen.getByRole('button', { name: 'Centrer sur ma position' })
    expect(recenter).toBeDisabled()
    act(() => answer!({ coords: { latitude: 46.0, longitude: 6.25 } }))
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    expect(recenter).toBeEnabled()
  })

  it('moves the centre by dragging, asks for the new view, and re-centres on the position', async () => {
    const fetch = stubMap(shops)
    geolocation((ok) => ok({ coords: { latitude: 46.0, longitude: 6.25 } }))
    const open = vi.fn()
    renderWithProviders(<ShopMap onShopClick={open} />)
    await pin('d1')
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    const before = mapRequests(fetch).length
    fireEvent.pointerDown(map(), { button: 0, clientX: 300, clientY: 200, pointerId: 1 })
    fireEvent.pointerMove(map(), { clientX: 302, clientY: 201, pointerId: 1 }) // under the drag threshold
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
    fireEvent.pointerMove(map(), { clientX: 400, clientY: 250, pointerId: 1 })
    fireEvent.pointerUp(map(), { clientX: 400, clientY: 250, pointerId: 1 })
    const [lon, lat] = map().getAttribute('data-center')!.split(',').map(Number)
    // The map follows the pointer (right and down): the view shows what lies west and north.
    expect(lon).toBeLessThan(6.25)
    expect(lat).toBeGreaterThan(46.0)
    await waitFor(() => expect(mapRequests(fetch).length).toBe(before + 1))
    expect(mapRequests(fetch).at(-1)!.west).toBeLessThan(mapRequests(fetch)[before - 1].west)
    // The click that ends a drag does not open a shop.
    fireEvent.click(marker('d1')!)
    expect(open).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Centrer sur ma position' }))
    expect(map()).toHaveAttribute('data-center', '6.2500,46.0000')
  })

  // Each overseas department's chef-lieu, as the place reference has it.
  it.each(OVERSEAS.map((p) => [`${p.name} (${p.department})`, [p.longitude, p.latitude] as [number, number]]))(
    'opens on a shop of %s, its own pin in the middle of the view, wherever the browser says it is',
    async (_, place) => {
      // The browser placed in Paris, as an overseas provider's line often is.
      geolocation((ok) => ok({ coords: { latitude: 48.8566, longitude: 2.3522 } }))
      const fetch = stubMap([{ _id: 'd7', name: 'Voisin des îles', latitude: place[1] + 0.02, longitude: place[0] }])
      renderWithProviders(<ShopMap ownShopId="d9" ownShop={{ name: 'Épicerie des îles', lonLat: place }} />)
      const own = await pin('d9')
      expect(map()).toHaveAttribute('data-center', `${place[0].toFixed(4)},${place[1].toFixed(4)}`)
      const [x, y] = own
        .getAttribute('transform')!
        .match(/-?[\d.]+/g)!
        .map(Number)
      expect(x).toBeCloseTo(400, 3) // the middle of the 800 × 440 view of tests
      expect(y).toBeCloseTo(220, 3)
      // Its neighbour comes with the answer for the area around it, which holds it.
      await pin('d7')
      const asked = mapRequests(fetch).at(-1)!
      expect(asked.south).toBeLessThan(place[1])
      expect(asked.north).toBeGreaterThan(place[1])
      expect(asked.west).toBeLessThan(place[0])
      expect(asked.east).toBeGreaterThan(place[0])
      // The browser's position is one button away.
      fireEvent.click(screen.getByRole('button', { name: 'Centrer sur ma position' }))
      expect(map()).toHaveAttribute('data-center', '2.3522,48.8566')
    },
  )

  it('opens on a producer’s farm overseas, and follows a shop whose profile moves it out of view', async () => {
    stubMap([])
    const farm = renderWithProviders(
      <ShopMap home={{ name: 'Ferme de Cayenne', lonLat: [CAYENNE.longitude, CAYENNE.latitude] }} />,
    )
    expect(map()).toHaveAttribute('data-center', '-52.3333,4.9333')
    const [x, y] = screen
      .getByTestId('home-marker')
      .getAttribute('transform')!
      .match(/-?[\d.]+/g)!
      .map(Number)
    expect(x).toBeCloseTo(400, 3)
    expect(y).toBeCloseTo(220, 3)
    farm.unmount()

    // A shop near Annecy saves an address in La Réunion: the map goes there.
    const user = userEvent.setup()
    const reunion: [number, number] = [SAINT_DENIS_REUNION.longitude, SAINT_DENIS_REUNION.latitude]
    function Saved() {
      const [place, setPlace] = useState<[number, number]>([6.1265, 45.9009])
      return (
        <>
          <button type="button" onClick={() => setPlace(reunion)}>
            Enregistrer
          </button>
          <ShopMap ownShopId="d1" ownShop={{ name: 'Épicerie du Lac', lonLat: place }} />
        </>
      )
    }
    renderWithProviders(<Saved />)
    expect(map()).toHaveAttribute('data-center', '6.1265,45.9009')
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(map()).toHaveAttribute('data-center', '55.4504,-20.8823')
    expect(marker('d1')).not.toBeNull()
  })

  it('draws a producer’s farm from its profile', () => {
    stubMap([])
    renderWithProviders(<ShopMap home={{ name: 'Ferme des Glières', lonLat: [6.25, 46.0] }} />)
    expect(screen.getByTestId('home-marker')).toHaveAttribute('aria-label', 'Ferme des Glières (vous)')
  })
})

// Shops registered by postal code are placed on their commune: several on one point (issue 37, finding 5).
describe('ShopMap stacks of shops at one place', () => {
  const thones = { latitude: 45.8817, longitude: 6.325 }
  const twins: StubShop[] = [
    ...shops,
    { _id: 't1', name: 'Fromagerie de Thônes', ...thones },
    { _id: 't2', name: 'Primeur de Thônes', ...thones },
  ]

  it('draws two shops of one commune as one stack that spreads them by click, Enter or Space, each then opening', async () => {
    stubMap(twins)
    const open = vi.fn()
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={open} />)
    const stack = await screen.findByRole('button', { name: '2 magasins à cet endroit' })
    expect(stack).toHaveAttribute('aria-expanded', 'false')
    // Neither pin is drawn under it; the shops elsewhere keep theirs.
    expect(marker('t1')).toBeNull()
    expect(marker('t2')).toBeNull()
    expect(marker('d1')).not.toBeNull()
    expect(within(map()).getByText('2 magasins')).toBeInTheDocument()

    await user.click(stack)
    expect(screen.getByRole('button', { name: '2 magasins à cet endroit' })).toHaveAttribute('aria-expanded', 'true')
    const [a, b] = [marker('t1')!, marker('t2')!]
    const at = (g: Element) =>
      g
        .getAttribute('transform')!
        .match(/-?[\d.]+/g)!
        .map(Number)
    const [ax, ay] = at(a)
    const [bx, by] = at(b)
    // Apart: neither pin's box (22 × 33) covers the other's.
    expect(Math.abs(ax - bx) >= 24 || Math.abs(ay - by) >= 35).toBe(true)
    expect(within(map()).getByText('Fromagerie de Thônes')).toBeInTheDocument()
    expect(within(map()).getByText('Primeur de Thônes')).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Primeur de Thônes' }))
    expect(open).toHaveBeenLastCalledWith('t2')

    // Escape gathers them back, the focus on the stack; Enter spreads them again, Tab reaches them.
    screen.getByRole('link', { name: 'Fromagerie de Thônes' }).focus()
    await user.keyboard('{Escape}')
    expect(marker('t1')).toBeNull()
    const closed = screen.getByRole('button', { name: '2 magasins à cet endroit' })
    expect(closed).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(screen.getByRole('button', { name: '2 magasins à cet endroit' })).toHaveAttribute('aria-expanded', 'true')
    await user.tab()
    expect(screen.getByRole('link', { name: 'Fromagerie de Thônes' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(open).toHaveBeenLastCalledWith('t1')
    // A click beside the markers closes it; Space opens it.
    await user.click(map().querySelector('rect')!)
    expect(marker('t1')).toBeNull()
    screen.getByRole('button', { name: '2 magasins à cet endroit' }).focus()
    await user.keyboard(' ')
    expect(marker('t2')).not.toBeNull()
  })

  it('moves the map so that a stack opened at its edge shows all its shops, and leaves it where they show', async () => {
    // 1.6° east of the default centre: about 390 pixels right of the middle of an 800-pixel map.
    const edge = { latitude: 45.9016, longitude: 7.72 }
    stubMap([
      ...twins,
      { _id: 'e1', name: 'Épicerie du Bord', ...edge },
      { _id: 'e2', name: 'Marché du Bord', ...edge },
      { _id: 'e3', name: 'Primeur du Bord', ...edge },
    ])
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={vi.fn()} />)
    const at = (id: string) =>
      marker(id)!
        .getAttribute('transform')!
        .match(/-?[\d.]+/g)!
        .map(Number)
    const stackAt = (name: string) =>
      screen
        .getByRole('button', { name })
        .getAttribute('transform')!
        .match(/-?[\d.]+/g)!
        .map(Number)
    await screen.findByRole('button', { name: '3 magasins à cet endroit' })
    const [x] = stackAt('3 magasins à cet endroit')
    expect(x).toBeGreaterThan(770)
    const before = map().getAttribute('data-center')
    await user.click(screen.getByRole('button', { name: '3 magasins à cet endroit' }))
    expect(map().getAttribute('data-center')).not.toBe(before)
    for (const id of ['e1', 'e2', 'e3']) {
      const [px, py] = at(id)
      // The pin's whole box (22 × 33 above its tip) inside the 800 × 440 map.
      expect(px - 11, id).toBeGreaterThanOrEqual(0)
      expect(px + 11, id).toBeLessThanOrEqual(800)
      expect(py - 33, id).toBeGreaterThanOrEqual(0)
      expect(py, id).toBeLessThanOrEqual(440)
    }
    // Gathered and opened again where all show: the map stays.
    await user.click(screen.getByRole('button', { name: '3 magasins à cet endroit' }))
    const moved = map().getAttribute('data-center')
    await user.click(screen.getByRole('button', { name: '3 magasins à cet endroit' }))
    expect(marker('e1')).not.toBeNull()
    expect(map().getAttribute('data-center')).toBe(moved)
    // A stack in the middle of the map opens where it is.
    await user.click(screen.getByRole('button', { name: '2 magasins à cet endroit' }))
    expect(marker('t1')).not.toBeNull()
    expect(map().getAttribute('data-center')).toBe(moved)
  })

  it('lists a stack of more shops than it spreads, each linked to its needs', async () => {
    const many: StubShop[] = Array.from({ length: 12 }, (_, i) => ({
      _id: `p${i}`,
      name: `Magasin ${String(i + 1).padStart(2, '0')}`,
      ...thones,
    }))
    stubMap(many)
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={vi.fn()} shopLink={(id) => `/prod/needs/${id}`} />)
    const stack = await screen.findByRole('button', { name: '12 magasins à cet endroit' })
    await user.click(stack)
    const list = screen.getByRole('region', { name: '12 magasins à cet endroit' })
    const opened = screen.getByRole('button', { name: '12 magasins à cet endroit' })
    expect(opened).toHaveAttribute('aria-expanded', 'true')
    expect(opened).toHaveAttribute('aria-controls', list.id)
    const links = within(list).getAllByRole('link', { name: /^Voir ses besoins : Magasin \d\d$/ })
    expect(links).toHaveLength(12)
    expect(links[0]).toHaveAttribute('href', '/prod/needs/p0')
    await user.click(within(list).getByRole('button', { name: 'Fermer la liste de ces magasins' }))
    expect(screen.queryByRole('region', { name: '12 magasins à cet endroit' })).not.toBeInTheDocument()
  })

  it('on a phone, shows the list of what the map shows in its place, and the map again', async () => {
    asPhone()
    stubMap(twins)
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={vi.fn()} shopLink={(id) => `/prod/needs/${id}`} />)
    await screen.findByRole('button', { name: '2 magasins à cet endroit' })
    const center = map().getAttribute('data-center')
    expect(screen.getByRole('radio', { name: 'Carte' })).toBeChecked()
    await user.click(screen.getByRole('radio', { name: 'Liste' }))
    expect(map()).not.toBeVisible()
    const list = screen.getByTestId('shop-list')
    expect(list).toBeVisible()
    for (const [id, name] of [
      ['t1', 'Fromagerie de Thônes'],
      ['t2', 'Primeur de Thônes'],
    ])
      expect(within(list).getByRole('link', { name: new RegExp(`^Voir (ses|les) besoins.*${name}$`) })).toHaveAttribute(
        'href',
        `/prod/needs/${id}`,
      )
    // No button to close it: it is the view.
    expect(screen.queryByRole('button', { name: /liste des magasins/i })).not.toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'Carte' }))
    expect(map()).toBeVisible()
    expect(map()).toHaveAttribute('data-center', center)
    expect(screen.getByRole('button', { name: 'Liste des magasins de la carte (4)' })).toBeInTheDocument()
  })

  it('never stacks the viewer’s own shop', async () => {
    stubMap(twins)
    renderWithProviders(<ShopMap ownShopId="t1" ownShop={{ name: 'Fromagerie de Thônes', lonLat: [6.325, 45.8817] }} />)
    await pin('t1')
    await pin('t2')
    expect(screen.queryByRole('button', { name: /à cet endroit/ })).not.toBeInTheDocument()
  })
})

describe('ShopMap search by postal code', () => {
  const withThones: StubShop[] = [
    ...shops,
    { _id: 'd5', name: 'Le Panier des Aravis', latitude: 45.8817, longitude: 6.325 },
  ]
  const search = () => screen.getByRole('combobox', { name: 'Recherche par code postal' })
  const nearby = () => screen.getByRole('region', { name: /^Magasins à moins de 30 km (de |d')/ })

  it('finds a town from a postal code, centres on it and lists the shops within 30 km by distance', async () => {
    const fetch = stubMap(withThones, { places: { '74000': [ANNECY] } })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap onShopClick={() => {}} shopLink={(id) => `/prod/needs/${id}`} />)
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
    await waitFor(() =>
      expect(within(nearby()).getByRole('status')).toHaveTextContent("2 magasins à moins de 30 km d'Annecy (74000)"),
    )
    // The area around the town was asked at the largest zoom.
    expect(mapRequests(fetch).some((b) => b.zoom === 4 && b.south < 45.64 && b.north > 46.17)).toBe(true)
    // Nearest first; Annemasse's shop (33 km) is not listed.
    const items = within(screen.getByTestId('nearby-shops')).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual([
      'Épicerie du Lac0,9 kmVoir ses besoins',
      'Le Panier des Aravis15,7 kmVoir ses besoins',
    ])
    expect(within(items[1]).getByRole('link', { name: 'Voir ses besoins : Le Panier des Aravis' })).toHaveAttribute(
      'href',
      '/prod/needs/d5',
    )
  })

  it('forgives accents, case and a typo in a town, with the keyboard alone', async () => {
    stubMap(withThones, { places: { anecy: [ANNECY] } })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap ownShopId="d1" ownShop={{ name: 'Épicerie du Lac', lonLat: [6.1265, 45.9009] }} />)
    await user.type(search(), 'ANECY')
    await screen.findByRole('option', { name: 'Annecy (74000)' })
    await user.keyboard('{ArrowDown}{Enter}')
    await waitFor(() =>
      expect(within(nearby()).getByRole('status')).toHaveTextContent("2 magasins à moins de 30 km d'Annecy (74000)"),
    )
    // A shop sees names only, its own marked.
    expect(within(nearby()).queryAllByRole('link')).toHaveLength(0)
    expect(within(nearby()).getByText('Épicerie du Lac (vous)')).toBeInTheDocument()
    await user.click(within(nearby()).getByRole('button', { name: 'Effacer la recherche' }))
    expect(screen.queryByRole('region', { name: /Magasins à moins de 30 km/ })).not.toBeInTheDocument()
    expect(screen.queryByTestId('search-area')).not.toBeInTheDocument()
  })

  it('says when no commune matches, when no shop is near, and when they are too many to list', async () => {
    stubMap(shops, { places: { '13001': [MARSEILLE_1], '74000': [ANNECY] }, limit: 0 })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    await user.type(search(), 'zzzzzz')
    expect(await screen.findByText('Aucune commune ne correspond')).toBeInTheDocument()
    await user.clear(search())
    await user.type(search(), '13001')
    await user.click(await screen.findByRole('option', { name: 'Marseille 1er Arrondissement (13001)' }))
    await waitFor(() =>
      expect(within(nearby()).getByRole('status')).toHaveTextContent(
        'Aucun magasin à moins de 30 km de Marseille 1er Arrondissement (13001)',
      ),
    )
    await user.clear(search())
    await user.type(search(), '74000')
    await user.click(await screen.findByRole('option', { name: 'Annecy (74000)' }))
    await waitFor(() =>
      expect(within(nearby()).getByRole('status')).toHaveTextContent(
        "Plus de 300 magasins autour d'Annecy (74000) : la carte les montre par groupes, zoomez pour les voir.",
      ),
    )
  })

  it('searches around a commune of the nearest postal code for a code of no commune (CEDEX)', async () => {
    stubMap(shops, { places: { '74011': [near(ANNECY)] } })
    const user = userEvent.setup()
    renderWithProviders(<ShopMap />)
    await user.type(search(), '74011')
    await user.click(await screen.findByRole('option', { name: /Annecy \(74000\)\s*code postal voisin/ }))
    expect(within(nearby()).getByText(/Aucune commune n'a ce code postal \(code CEDEX \?\)/)).toBeInTheDocument()
  })
})
