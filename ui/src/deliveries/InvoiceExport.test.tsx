import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../test/render'
import type { Order } from '../types'
import { InvoiceExport } from './InvoiceExport'
import { exportPath, invoicedMonths } from './model'

const order = (id: string, month: string, invoiced: boolean): Order => ({
  _id: id,
  date: month,
  distributor: 'd1',
  deliveries: [],
  invoice: invoiced ? { _id: `i${id}`, number: `FA-2026-00000${id}`, issuedAt: '2026-11-01T05:00:00Z' } : null,
})

describe('the export of invoices', () => {
  it('lists the invoiced months, latest first, once each', () => {
    const orders = [
      order('1', '2026-09-01', true),
      order('2', '2026-10-01', true),
      order('3', '2026-10-01', true),
      order('4', '2026-11-01', false),
    ]
    expect(invoicedMonths(orders)).toEqual(['2026-10-01', '2026-09-01'])
    expect(exportPath('2026-10-01')).toBe('/print/invoices/2026-10')
  })

  it('links the chosen month to its zip', async () => {
    const user = userEvent.setup()
    renderWithProviders(<InvoiceExport orders={[order('1', '2026-09-01', true), order('2', '2026-10-01', true)]} />)
    expect(screen.getByRole('link', { name: "Télécharger l'export de octobre 2026" })).toHaveAttribute(
      'href',
      '/print/invoices/2026-10',
    )
    await user.click(screen.getByLabelText('Mois des livraisons facturées', { selector: 'input' }))
    await user.click(screen.getByRole('option', { name: 'septembre 2026' }))
    expect(screen.getByRole('link', { name: "Télécharger l'export de septembre 2026" })).toHaveAttribute(
      'href',
      '/print/invoices/2026-09',
    )
  })

  it('shows nothing before the first invoice', () => {
    renderWithProviders(<InvoiceExport orders={[order('1', '2026-11-01', false)]} />)
    expect(screen.queryByText('Export comptable')).not.toBeInTheDocument()
  })
})
