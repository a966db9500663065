import { Drawer } from '@mantine/core'
import type { ReactNode } from 'react'

/** The French texts of the sheet. */
export const SHEET_TEXTS = { close: 'Fermer le détail' } as const

/**
 * A screen's detail on a phone (issue 19 "Phone layouts"): a sheet rising
 * from the bottom over the list, most of the screen's height, with its
 * title and a way back (the close button, Escape, a tap outside). The
 * focus moves into it and returns where it was on closing.
 */
export function DetailSheet({
  opened,
  onClose,
  title,
  children,
}: {
  opened: boolean
  onClose: () => void
  title: ReactNode
  children: ReactNode
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="bottom"
      size="88%"
      title={title}
      closeButtonProps={{ 'aria-label': SHEET_TEXTS.close }}
      styles={{ content: { borderTopLeftRadius: 16, borderTopRightRadius: 16 } }}
    >
      {children}
    </Drawer>
  )
}
