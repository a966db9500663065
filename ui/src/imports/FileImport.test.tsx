import { notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MSG_PAST_MONTH, resetImports } from '../store/imports'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import { FileImport } from './FileImport'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status })

beforeEach(() => {
  resetState('epicerie@exemple.fr')
  resetImports()
  state.products = [
    { _id: 'tomate', name: 'Tomate', family: 'legumes', vatRate: 550, unit: 'kg', refPrice: 0 },
    { _id: 'melon', name: 'Melon', family: 'fruits', vatRate: 550, unit: 'un', refPrice: 0 },
  ]
})

function fileInput(container: HTMLElement): HTMLInputElement {
  const input = container.querySelector('input[type="file"]')
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input')
  return input
}

describe('FileImport', () => {
  it('offers .xlsx, .ods and .csv files and links the example file and the product list', () => {
    const { container } = renderWithProviders(<FileImport />)
    expect(fileInput(container).accept.split(',')).toEqual(expect.arrayContaining(['.xlsx', '.ods', '.csv']))
    expect(screen.getByLabelText('Fichier (.xlsx, .ods ou .csv)')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Importer' })).toBeDisabled()
    expect(screen.getByRole('link', { name: "Télécharger le fichier d'exemple" })).toHaveAttribute(
      'href',
      '/public/other/exemple_import.xlsx',
    )
    expect(screen.getByRole('link', { name: 'Télécharger la liste des produits' })).toHaveAttribute(
      'href',
      '/public/other/products.csv',
    )
    expect(screen.getByRole('link', { name: 'Liste des produits au format Excel' })).toHaveAttribute(
      'href',
      '/public/other/produits.xlsx',
    )
  })

  it('sends the file and shows what was imported, refused and missing', async () => {
    const imported = {
      needs: [],
      productsFound: ['Tomate', 'Melon'],
      productsMissing: ['Kumquat', 'Yuzu', 'Physalis', 'Fruit du dragon'],
      dbErrors: [
        {
          product: 'Tomate',
          productId: 'tomate',
          date: '2027-01-01',
          quantity: 50,
          reserved: 100,
          cell: 'B2',
          message: 'x',
        },
        {
          product: 'Melon',
          productId: 'melon',
          date: '2027-02-01',
          quantity: 3,
          reserved: 8,
          cell: 'C3',
          message: 'x',
        },
      ],
      dbSuccesses: 30,
    }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json({
          ...imported,
          changes: [{ product: 'Tomate', productId: 'tomate', date: '2027-03-01', cell: 'D2', from: null, to: 12.5 }],
          suggestions: [{ name: 'Courgete', product: 'Courgette' }],
          productsMissing: ['Courgete'],
          rounded: [{ cell: 'D2', product: 'Tomate', read: '12.4999', quantity: 12.5 }],
        }),
      )
      .mockResolvedValueOnce(json(imported))
    const update = vi.spyOn(notifications, 'update')
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['PK'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))

    // First what the import would write, nothing written yet.
    const preview = await screen.findByLabelText("Aperçu de l'import")
    expect(fetch.mock.calls[0][0]).toBe('/api/needs-loader/preview')
    expect(within(preview).getByText('1 besoin à créer')).toBeInTheDocument()
    expect(within(preview).getByRole('row', { name: /Tomate mars 2027 D2 nouveau 12,5/ })).toBeInTheDocument()
    expect(within(preview).getByText('Courgete : vouliez-vous dire Courgette ?')).toBeInTheDocument()
    expect(within(preview).getByText('12.4999 lu en D2 (Tomate), importé 12,5 kg')).toBeInTheDocument()
    expect(screen.queryByText(/Import réussi/)).not.toBeInTheDocument()
    await user.click(within(preview).getByRole('button', { name: "Confirmer l'import" }))

    expect(await screen.findByText('Import réussi de 30 besoins')).toBeInTheDocument()
    expect(fetch.mock.calls[1][0]).toBe('/api/needs-loader')
    expect(screen.getByText(/2 besoins non importés/)).toBeInTheDocument()
    expect(
      screen.getByText('Tomate, janvier 2027 (B2) : 50 kg demandés, 100 kg engagés ou proposés'),
    ).toBeInTheDocument()
    expect(screen.getByText('Melon, février 2027 (C3) : 3 un demandés, 8 un engagés ou proposés')).toBeInTheDocument()
    expect(screen.getByText('Kumquat, Yuzu, Physalis, ...')).toBeInTheDocument()
    expect(update.mock.calls.map((c) => c[0].title)).toContain('Importation effectuée')
    expect(screen.queryByText('Erreur')).not.toBeInTheDocument()
  })

  it('shows the "Erreur" tag with the server message when the file is refused', async () => {
    const detail = 'Quantité illisible en B4 (« douze ») : saisissez un nombre.'
    const update = vi.spyOn(notifications, 'update')
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ status: 422, title: 'Unprocessable Entity', detail }, 422))
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['x'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Erreur')
    expect(alert).toHaveTextContent(detail)
    expect(screen.queryByText(/Import réussi/)).not.toBeInTheDocument()
    // The failure toast (its rendering is timed: the store tests check the toasts themselves).
    expect(update.mock.calls.map((c) => c[0].title)).toContain("Échec de l'importation")

    // Choosing another file clears the error.
    await user.upload(fileInput(container), new File(['y'], 'autre.xlsx'))
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
  })

  it('shows "en cours..." while the file is sent', async () => {
    let resolve!: (r: Response) => void
    vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise((r) => (resolve = r)))
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['PK'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    expect(await screen.findByRole('button', { name: 'en cours...' })).toBeDisabled()
    resolve(json({ needs: [], productsFound: [], productsMissing: [], dbErrors: [], dbSuccesses: 0, changes: [] }))
    expect(await screen.findByText('Ce fichier ne changerait aucun besoin')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: "Confirmer l'import" })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByLabelText("Aperçu de l'import")).not.toBeInTheDocument()
  })

  it('lists every problem of a refused file', async () => {
    const errors = [
      'Quantité illisible en B2 (« douze »)',
      'Quantité négative en B4 (« -3 »)',
      'Formule en erreur en B5',
    ].map((message) => ({ location: 'body.importfile', message }))
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({ status: 422, title: 'Unprocessable Entity', detail: errors[0].message, errors }, 422),
    )
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['x'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("Le fichier n'a pas été importé : 3 problèmes à corriger.")
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(errors.map((e) => e.message))
  })

  const answer = (sheet: string, sheets: string[], changes = 1) => ({
    needs: [],
    productsFound: ['Tomate'],
    productsMissing: [],
    dbErrors: [],
    dbSuccesses: changes,
    changes: Array.from({ length: changes }, (_, i) => ({
      product: 'Tomate',
      productId: 'tomate',
      date: `2027-0${i + 1}-01`,
      cell: `B${i + 2}`,
      from: null,
      to: 10 + i,
    })),
    sheet,
    sheets,
  })
  const sentSheet = (fetch: { mock: { calls: unknown[][] } }, call: number) =>
    ((fetch.mock.calls[call][1] as RequestInit).body as FormData).get('sheet')

  it('names the sheet read, lets the shop read another, and imports the one chosen', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(answer('2027', ['2026', '2027'])))
      .mockResolvedValueOnce(json(answer('2026', ['2026', '2027'], 2)))
      .mockResolvedValueOnce(json(answer('2026', ['2026', '2027'], 2)))
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['PK'], 'besoins.ods'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))

    const preview = await screen.findByLabelText("Aperçu de l'import")
    expect(within(preview).getByText('Feuille lue : « 2027 »')).toBeInTheDocument()
    expect(sentSheet(fetch, 0)).toBeNull()
    const choice = screen.getByRole('combobox', { name: 'Feuille à importer' })
    expect(choice).toHaveValue('2027')
    await user.click(choice)
    await user.click(await screen.findByRole('option', { name: '2026' }))

    expect(await screen.findByText('Feuille lue : « 2026 »')).toBeInTheDocument()
    expect(screen.getByText('2 besoins à créer')).toBeInTheDocument()
    expect(fetch.mock.calls[1][0]).toBe('/api/needs-loader/preview')
    expect(sentSheet(fetch, 1)).toBe('2026')
    await user.click(screen.getByRole('button', { name: "Confirmer l'import" }))

    const result = await screen.findByLabelText("Résultat de l'import")
    expect(within(result).getByText('Import réussi de 2 besoins')).toBeInTheDocument()
    expect(within(result).getByText('Feuille lue : « 2026 »')).toBeInTheDocument()
    expect(fetch.mock.calls[2][0]).toBe('/api/needs-loader')
    expect(sentSheet(fetch, 2)).toBe('2026')
    expect(screen.queryByRole('combobox', { name: 'Feuille à importer' })).not.toBeInTheDocument()
  })

  it('offers the sheets of an ambiguous file the server refused, and previews the one chosen', async () => {
    const detail =
      "Plusieurs feuilles contiennent un tableau de besoins (« 2027 », « 2028 ») et aucune n'est la feuille active : choisissez celle à importer."
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json(
          {
            status: 422,
            title: 'Unprocessable Entity',
            detail,
            errors: [{ location: 'body.sheet', message: detail, value: ['2027', '2028'] }],
          },
          422,
        ),
      )
      .mockResolvedValueOnce(json(answer('2028', ['2027', '2028'])))
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['PK'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))

    expect(await screen.findByRole('alert')).toHaveTextContent(detail)
    const choice = screen.getByRole('combobox', { name: 'Feuille à importer' })
    expect(choice).toHaveValue('')
    await user.click(choice)
    await user.click(await screen.findByRole('option', { name: '2028' }))

    const preview = await screen.findByLabelText("Aperçu de l'import")
    expect(within(preview).getByText('Feuille lue : « 2028 »')).toBeInTheDocument()
    expect(sentSheet(fetch, 1)).toBe('2028')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('names no sheet for a .csv, nor offers a choice for a single table', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(answer('besoins', ['besoins'])))
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['Produit;2027-01'], 'besoins.csv'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    await screen.findByLabelText("Aperçu de l'import")
    expect(screen.queryByText(/Feuille lue/)).not.toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: 'Feuille à importer' })).not.toBeInTheDocument()
  })

  it('puts cells of past months under their own heading, not under producers’ commitments', async () => {
    const past = (product: string, productId: string, cell: string) => ({
      product,
      productId,
      date: '2026-01-01',
      quantity: 12,
      reserved: 0,
      cell,
      message: MSG_PAST_MONTH,
    })
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      json({
        ...answer('2026', ['2026', '2027'], 0),
        dbErrors: [past('Tomate', 'tomate', 'B2'), past('Melon', 'melon', 'B3')],
        dbSuccesses: 0,
      }),
    )
    const user = userEvent.setup()
    const { container } = renderWithProviders(<FileImport />)
    await user.upload(fileInput(container), new File(['PK'], 'besoins.xlsx'))
    await user.click(screen.getByRole('button', { name: 'Importer' }))
    const preview = await screen.findByLabelText("Aperçu de l'import")
    expect(within(preview).getByText('Ce fichier ne changerait aucun besoin')).toBeInTheDocument()
    expect(within(preview).getByText('Tous ses mois sont passés.')).toBeInTheDocument()
    expect(within(preview).getByText('2 besoins non importés : leurs mois sont passés')).toBeInTheDocument()
    expect(within(preview).getByText('Tomate, janvier 2026 (B2) : 12 kg')).toBeInTheDocument()
    expect(within(preview).getByText('Melon, janvier 2026 (B3) : 12 un')).toBeInTheDocument()
    expect(within(preview).queryByText(/engagements/)).not.toBeInTheDocument()
    // Another sheet of the file holds months to come.
    expect(screen.getByRole('combobox', { name: 'Feuille à importer' })).toHaveValue('2026')
  })
})
