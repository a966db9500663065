import { Modal } from '@mantine/core'
import { ActivityFeed } from './ActivityFeed'

/** Recent activity grouped by day, newest first (PRODUCT §2 "Activity feed"), with paging back. */
export function ActivityModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Activités" size="lg" closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <ActivityFeed />
    </Modal>
  )
}
