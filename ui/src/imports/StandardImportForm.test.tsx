import { notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetImports } from '../store/imports'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { STANDARD_IMPORT_MESSAGES as M } from '../validation/standardImport'
import { currentMonth } from '../planner/period'
import { StandardImportForm } from './StandardImportForm'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status })
const now = new Date('2026-11-20T10:00:00Z')

const preview = [
  {
    _id: 'carotte',
    name: 'Carotte',
    unit: 'kg',
    values: [
      { date: '2026-12-01', quantity: 617.72 },
      { date: '2027-01-01', quantity: 617.72 },
      { date: '2027-02-01', quantity: 617.72 },
    ],
  },
  {
    _id: 'melon',
    name: 'Melon',
    unit: 'un',
    values: [
      { date: '2026-12-01', quantity: 35 },
      { date: '2027-01-01', quantity: 17 },
      { date: '2027-02-01', quantity: 17 },
    ],
  },
]

beforeEach(() => {
  resetState('epicerie@exemple.fr')
  resetImports()
})

describe('StandardImportForm', () => {
  it('starts with the PRODUCT §9 defaults and a disabled "Simuler"', () => {
    renderWithProviders(<StandardImportForm now={now} />)
    expect(screen.getByLabelText('Premier mois', { selector: 'input' })).toHaveValue('décembre 2026')
    expect(screen.getByLabelText('Dernier mois', { selector: 'input' })).toHaveValue('novembre 2027')
    expect(screen.getByLabelText('Je connais mon CA fruits et légumes')).toBeChecked()
    expect(screen.getByLabelText('CA fruits et légumes annuel')).toHaveValue('')
    expect(screen.getByLabelText('Coefficient de correction')).toHaveValue('90')
    expect(screen.queryByLabelText('Part des fruits et légumes')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Simuler' })).toBeDisabled()
    expect(currentMonth(now)).toBe('2026-11-01')
  })

  it('shows the PRODUCT §5 messages once a field is left, and switches the turnover asked', async () => {
    const user = userEvent.setup()
    renderWithProviders(<StandardImportForm now={now} />)
    const vegetable = screen.getByLabelText('CA fruits et légumes annuel')
    await user.click(vegetable)
    await user.tab()
    expect(screen.getByText(M.vegetableRequired)).toBeInTheDocument()
    await user.type(vegetable, '0')
    expect(screen.getByText(M.positive)).toBeInTheDocument()

    await user.click(screen.getByLabelText('Je connais mon CA fruits et légumes'))
    expect(screen.queryByLabelText('CA fruits et légumes annuel')).not.toBeInTheDocument()
    const store = screen.getByLabelText('CA annuel magasin')
    const share = screen.getByLabelText('Part des fruits et légumes')
    expect(share).toHaveValue('20')
    await user.click(store)
    await user.tab()
    expect(screen.getByText(M.storeRequired)).toBeInTheDocument()
    await user.clear(share)
    await user.type(share, '5')
    await user.tab()
    expect(screen.getByText(M.share)).toBeInTheDocument()
    const correction = screen.getByLabelText('Coefficient de correction')
    await user.clear(correction)
    await user.type(correction, '250')
    await user.tab()
    expect(screen.getByText(M.correction)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Simuler' })).toBeDisabled()

    await user.type(store, '1 000 000')
    await user.clear(share)
    await user.type(share, '20')
    await user.clear(correction)
    await user.type(correction, '90')
    // 1 000 000 € × 20 % × 90 %.
    expect(
      screen.getByText(
        /CA fruits et légumes annuel retenu : 180\s000,00\s€, soit 15\s000,00\s€ par mois en moyenne, réparti selon la saison sur les 12 mois importés\./,
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Simuler' })).toBeEnabled()
  })

  it('previews the first three months, then imports every month', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(preview))
    const update = vi.spyOn(notifications, 'update')
    const user = userEvent.setup()
    renderWithProviders(<StandardImportForm now={now} />)
    await user.type(screen.getByLabelText('CA fruits et légumes annuel'), '150000')
    await user.click(screen.getByRole('button', { name: 'Simuler' }))

    const table = await screen.findByRole('table', { name: "Aperçu de l'import standard" })
    const sim = JSON.parse(String(fetch.mock.calls[0][1]?.body))
    expect(fetch.mock.calls[0][0]).toBe('/api/needs/importstd/sim')
    expect(sim).toEqual({ turnover: 135000, months: ['2026-12-01', '2027-01-01', '2027-02-01'] })
    const rows = within(table).getAllByRole('row')
    expect(rows.map((r) => r.textContent)).toEqual([
      'Produitdécembre 2026janvier 2027février 2027',
      'Carotte617,72 kg617,72 kg617,72 kg',
      'Melon35 un17 un17 un',
    ])

    const need = {
      _id: 'n1',
      product: 'carotte',
      distributor: 'd1',
      date: '2026-12-01',
      quantity: 617.72,
      quantityAccepted: 0,
      quantityProposed: 0,
      quantityAvailable: 617.72,
      updatedAt: '',
      proposals: [],
    }
    fetch.mockResolvedValueOnce(
      json({
        needs: [need],
        event: {
          createdAt: '2026-11-20T10:00:00Z',
          type: 'need:import',
          data: {},
          origin: { email: '', name: '' },
          target: { name: '' },
        },
        dbErrors: [
          {
            product: 'Carotte',
            productId: 'carotte',
            date: '2027-01-01',
            quantity: 617.72,
            reserved: 900,
            message: 'x',
          },
        ],
        dbSuccesses: 95,
      }),
    )
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    expect(await screen.findByText('Import réussi de 95 besoins')).toBeInTheDocument()
    const commit = JSON.parse(String(fetch.mock.calls[1][1]?.body))
    expect(fetch.mock.calls[1][0]).toBe('/api/needs/importstd/commit')
    expect(commit.turnover).toBe(135000)
    expect(commit.months).toHaveLength(12)
    expect(commit.months[11]).toBe('2027-11-01')
    expect(
      screen.getByText('1 besoin non importé : la quantité demandée est inférieure aux engagements existants'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(state.needs).toEqual([need])
    expect(update.mock.calls.map((c) => c[0].title)).toEqual(['Importation effectuée'])
  })

  it('returns silently to the form when the simulation fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({ status: 422, detail: 'Le chiffre d’affaires saisi est trop grand.' }, 422),
    )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const show = vi.spyOn(notifications, 'show')
    const user = userEvent.setup()
    renderWithProviders(<StandardImportForm now={now} />)
    await user.type(screen.getByLabelText('CA fruits et légumes annuel'), '900000000')
    await user.click(screen.getByRole('button', { name: 'Simuler' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Simuler' })).toBeEnabled())
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(show).not.toHaveBeenCalled()
  })
})
