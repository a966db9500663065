import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetPlaces } from '../store/places'
import { resetShopMap, setMapFilter } from '../store/shopmap'
import { state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { stubMap } from '../test/shopmap'
import { MAP_FILTER_TEXTS } from './MapFilters'
import { ShopMap } from './ShopMap'

/** The filters of each `GET /api/map` asked, in order: "family km", empty for none. */
function filtersAsked(fetch: ReturnType<typeof stubMap>): string[] {
  return fetch.mock.calls
    .map((c) => String(c[0]))
    .filter((u) => u.startsWith('/api/map?'))
    .map((u) => {
      const q = new URL(u, 'http://localhost').searchParams
      return `${q.get('family') ?? ''} ${q.get('km') ?? ''}`.trim()
    })
}

beforeEach(() => {
  resetShopMap()
  resetPlaces()
  state.families = [
    { _id: 'fruits', name: 'Fruits' },
    { _id: 'fromages', name: 'Fromages' },
  ]
})

describe('MapFilters', () => {
  it('asks the map again for the shops needing a family, within a distance of the farm, and clears them', async () => {
    const fetch = stubMap([{ _id: 'd1', name: 'Épicerie du Lac', latitude: 45.9009, longitude: 6.1265 }])
    const user = userEvent.setup()
    renderWithProviders(<ShopMap home={{ name: 'Ferme des Glières', lonLat: [6.25, 46.0] }} />)
    await waitFor(() => expect(filtersAsked(fetch)).toEqual(['']))
    await user.selectOptions(screen.getByLabelText(MAP_FILTER_TEXTS.family), 'Fromages')
    await waitFor(() => expect(filtersAsked(fetch).at(-1)).toBe('fromages'))
    await user.selectOptions(screen.getByLabelText(MAP_FILTER_TEXTS.distance), '50 km')
    await waitFor(() => expect(filtersAsked(fetch).at(-1)).toBe('fromages 50'))
    await user.click(screen.getByRole('button', { name: MAP_FILTER_TEXTS.clear }))
    await waitFor(() => expect(filtersAsked(fetch).at(-1)).toBe(''))
    expect(screen.queryByRole('button', { name: MAP_FILTER_TEXTS.clear })).not.toBeInTheDocument()
    expect(screen.getByLabelText(MAP_FILTER_TEXTS.family)).toHaveValue('')
  })

  it('offers no distance to a viewer the map cannot place, saying why, and drops one set before', async () => {
    const fetch = stubMap([])
    setMapFilter({ family: '', km: 50 })
    renderWithProviders(<ShopMap />)
    await waitFor(() => expect(filtersAsked(fetch).at(-1)).toBe(''))
    expect(filtersAsked(fetch)).not.toContain('50')
    expect(screen.getByLabelText(MAP_FILTER_TEXTS.distance)).toBeDisabled()
    expect(screen.getByText(MAP_FILTER_TEXTS.unplaced)).toBeInTheDocument()
  })
})
