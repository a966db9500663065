import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DistributorNeeds } from '../pages/DistributorNeeds'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { need } from '../test/needs'
import { renderWithProviders } from '../test/render'
import type { Product } from '../types'
import { PAGE_ROWS } from './navigation'
import { OVERSCAN, ROW_HEIGHT } from './useRowWindow'
import { holdLists } from '../test/lists'

// The planner grid with many rows (issue 20): only the rows in view are in
// the DOM, the keyboard reaches every row all the same.

vi.mock('../store/comparison', async (original) => ({
  ...(await original<typeof import('../store/comparison')>()),
  loadComparison: vi.fn(async () => {}),
}))
// So do the producers' offers near a need (store/offers.ts).
vi.mock('../store/offers', async (original) => ({
  ...(await original<typeof import('../store/offers')>()),
  listOffers: vi.fn(async () => []),
}))

const N = 500
/** Products "Produit 000" … "Produit 499", in the grid's order (by name). */
const many: Product[] = Array.from({ length: N }, (_, i) => ({
  _id: `p${i}`,
  name: `Produit ${String(i).padStart(3, '0')}`,
  family: 'legumes',
  vatRate: 550,
  unit: 'kg',
  refPrice: 2,
}))

const grid = () => screen.getByRole('grid', { name: 'Besoins par produit et par mois' })
/** The body's rows in the DOM (the header's row has aria-rowindex 1). */
const bodyRows = () =>
  within(grid())
    .getAllByRole('row')
    .filter((r) => r.getAttribute('aria-rowindex') !== '1')
const cell = (label: string) => screen.getByRole('gridcell', { name: (n) => n.startsWith(`${label} : `) })

function setWindow(width: number, height: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width })
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height })
  act(() => {
    window.dispatchEvent(new Event('resize'))
  })
}

// jsdom lays nothing out and does not scroll: the grid's box is given the
// window's height and its content's (the rows at their estimated height),
// and an element's scrollTo sets its scrollTop and says so with a scroll
// event, as a browser does.
function layOut() {
  const box = grid().parentElement!.parentElement!
  Object.defineProperty(box, 'clientHeight', { configurable: true, value: window.innerHeight })
  Object.defineProperty(box, 'scrollHeight', { configurable: true, value: N * ROW_HEIGHT })
  return box
}
const scrollTo = HTMLElement.prototype.scrollTo
beforeEach(() => {
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
    const top = typeof options === 'object' ? options.top : undefined
    if (top === undefined) return
    Object.defineProperty(this, 'scrollTop', { configurable: true, value: top })
    this.dispatchEvent(new Event('scroll'))
  } as typeof HTMLElement.prototype.scrollTo
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
  setWindow(1280, 800)
  resetState(distributor.email)
  holdLists()
  state.user = distributor
  state.products = many
  state.needs = many.map((p, i) => need(p._id, '2026-12-01', i + 1))
})

afterEach(() => {
  HTMLElement.prototype.scrollTo = scrollTo
  vi.useRealTimers()
})

describe('a planner of 500 products', () => {
  it('renders only the rows in view, and says how many there are', () => {
    renderWithProviders(<DistributorNeeds />)
    expect(grid()).toHaveAttribute('aria-rowcount', String(N + 1))
    // Without a layout the box is the window's height (800 px).
    const inView = Math.ceil(800 / ROW_HEIGHT)
    const rows = bodyRows()
    expect(rows.length).toBeGreaterThanOrEqual(inView)
    expect(rows.length).toBeLessThanOrEqual(inView + 2 * OVERSCAN + 1)
    // The first rows, in order, each with its place in the whole grid.
    expect(rows.map((r) => r.getAttribute('aria-rowindex'))).toEqual(rows.map((_, i) => String(i + 2)))
    expect(screen.getByRole('rowheader', { name: /Produit 000/ })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: /Produit 499/ })).not.toBeInTheDocument()
    // The rows left out keep their height, as one space after those shown.
    const space = grid().querySelector('tbody tr[aria-hidden="true"]:last-child') as HTMLElement
    expect(parseFloat(space.style.height)).toBe((N - rows.length) * ROW_HEIGHT)
  })

  it('follows the box: a shorter window, fewer rows', () => {
    setWindow(1280, 400)
    renderWithProviders(<DistributorNeeds />)
    expect(bodyRows().length).toBeLessThanOrEqual(Math.ceil(400 / ROW_HEIGHT) + 2 * OVERSCAN + 1)
  })

  it('reaches the last row with Ctrl+End and Page Down, and edits it', async () => {
    const user = userEvent.setup()
    const last = state.needs[N - 1]
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ ...last, quantity: 777, quantityAvailable: 777 }))
    renderWithProviders(<DistributorNeeds />)
    layOut()
    await user.click(cell('Produit 000, novembre 2026'))
    await user.keyboard('{PageDown}')
    await waitFor(() => expect(cell(`Produit ${String(PAGE_ROWS).padStart(3, '0')}, novembre 2026`)).toHaveFocus())
    await user.keyboard('{Control>}{End}{/Control}')
    await waitFor(() => expect(cell('Produit 499, juin 2027')).toHaveFocus())
    const lastRow = cell('Produit 499, juin 2027').closest('tr')
    expect(lastRow).toHaveAttribute('aria-rowindex', String(N + 1))
    // The view moved there: the first rows are gone, the DOM stays small.
    expect(screen.queryByRole('rowheader', { name: /Produit 000/ })).not.toBeInTheDocument()
    expect(bodyRows().length).toBeLessThanOrEqual(Math.ceil(800 / ROW_HEIGHT) + 2 * OVERSCAN + 1)

    await user.keyboard('{Home}{ArrowRight}')
    expect(cell('Produit 499, décembre 2026')).toHaveFocus()
    await user.keyboard('{Enter}')
    const field = screen.getByRole('textbox', { name: 'Produit 499, décembre 2026' })
    await user.clear(field)
    await user.type(field, '777{Enter}')
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toContain(last._id)
    expect(JSON.parse(String(init.body))).toMatchObject({ quantity: 777 })
    await waitFor(() => expect(cell('Produit 499, décembre 2026')).toHaveAccessibleName(/: 777 kg$/))
    expect(cell('Produit 499, décembre 2026')).toHaveFocus()
  })

  it('keeps the tab stop’s row in the DOM when scrolled away from it', async () => {
    const user = userEvent.setup()
    renderWithProviders(<DistributorNeeds />)
    await user.click(cell('Produit 003, janvier 2027'))
    const box = layOut()
    act(() => box.scrollTo({ top: 300 * ROW_HEIGHT }))
    await waitFor(() => expect(screen.getByRole('rowheader', { name: /Produit 300/ })).toBeInTheDocument())
    expect(screen.queryByRole('rowheader', { name: /Produit 002/ })).not.toBeInTheDocument()
    // The selected cell is still there, the grid's one stop: Tab comes back to it.
    const stop = cell('Produit 003, janvier 2027')
    expect(stop).toHaveAttribute('tabindex', '0')
    expect(stop.closest('tr')).toHaveAttribute('aria-rowindex', '5')
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(cell('Produit 004, janvier 2027')).toHaveFocus())
  })
})
