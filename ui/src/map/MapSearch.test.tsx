import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetPlaces } from '../store/places'
import { ANNECY, ANNECY_LE_VIEUX, MANIGOD, SERRAVAL, THONES, near, stubPlaces } from '../test/places'
import { renderWithProviders } from '../test/render'
import { MapSearch } from './MapSearch'
import type { PlaceMatch } from './places'

beforeEach(() => resetPlaces())

const box = () => screen.getByRole('combobox', { name: 'Recherche par code postal' })

describe('MapSearch', () => {
  it('finds a village by name once typing pauses, and Enter takes the first', async () => {
    const fetch = stubPlaces({ seraval: [SERRAVAL] })
    const onPick = vi.fn<(m: PlaceMatch) => void>()
    const user = userEvent.setup()
    renderWithProviders(<MapSearch onPick={onPick} />)
    await user.type(box(), 'seraval')
    expect(await screen.findByRole('option', { name: 'Serraval (74230)' })).toBeInTheDocument()
    // The last text was asked; any request of a text typed over was cancelled.
    const calls = fetch.mock.calls
    expect(String(calls[calls.length - 1][0])).toBe('/api/places?q=seraval&limit=8')
    expect(calls.slice(0, -1).every((c) => c[1]?.signal?.aborted)).toBe(true)
    await user.keyboard('{Enter}')
    expect(onPick).toHaveBeenCalledTimes(1)
    expect(onPick.mock.calls[0][0].city.lonLat).toEqual([6.34021, 45.80098])
    expect(box()).toHaveValue('Serraval (74230)')
    expect(screen.queryByRole('option')).not.toBeInTheDocument()
  })

  it('lists the communes of a postal code, most populous first, and says what a former commune is', async () => {
    stubPlaces({ '74230': [THONES, MANIGOD, SERRAVAL], '74000': [ANNECY, ANNECY_LE_VIEUX] })
    const user = userEvent.setup()
    renderWithProviders(<MapSearch onPick={() => {}} />)
    await user.type(box(), '74230')
    await screen.findByRole('option', { name: 'Thônes (74230)' })
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Thônes (74230)',
      'Manigod (74230)',
      'Serraval (74230)',
    ])
    await user.clear(box())
    await user.type(box(), '74000')
    expect(await screen.findByRole('option', { name: /Annecy-le-Vieux \(74000\)/ })).toHaveTextContent(
      "commune d'Annecy",
    )
  })

  it('cancels the request of a text typed over', async () => {
    const fetch = stubPlaces({ thon: [THONES], thones: [THONES] }, { delay: 400 })
    const user = userEvent.setup()
    renderWithProviders(<MapSearch onPick={() => {}} />)
    await user.type(box(), 'thon')
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    await user.type(box(), 'es')
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    expect(fetch.mock.calls[0][1]?.signal?.aborted).toBe(true)
    expect(fetch.mock.calls[1][1]?.signal?.aborted).toBe(false)
    expect(await screen.findByRole('option', { name: 'Thônes (74230)' })).toBeInTheDocument()
  })

  it('takes the first place when Enter came before the answer', async () => {
    stubPlaces({ '74011': [near(ANNECY)] }, { delay: 300 })
    const onPick = vi.fn<(m: PlaceMatch) => void>()
    const user = userEvent.setup()
    renderWithProviders(<MapSearch onPick={onPick} />)
    await user.type(box(), '74011{Enter}')
    expect(onPick).not.toHaveBeenCalled()
    await waitFor(() => expect(onPick).toHaveBeenCalledTimes(1))
    expect(onPick.mock.calls[0][0]).toMatchObject({ approximate: true, city: { name: 'Annecy' } })
  })

  it('says when nothing matches, and when the search is unavailable', async () => {
    const fetch = stubPlaces({})
    const user = userEvent.setup()
    renderWithProviders(<MapSearch onPick={() => {}} />)
    await user.type(box(), 'zzzz')
    expect(await screen.findByText('Aucune commune ne correspond')).toBeInTheDocument()
    fetch.mockRejectedValue(new TypeError('Failed to fetch'))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await user.type(box(), 'y')
    expect(await screen.findByText('La recherche est indisponible, réessayez dans un instant')).toBeInTheDocument()
  })
})
