import { useEffect, useMemo, useState } from 'react';
import type * as Radix from '@radix-ui/react-dropdown-menu';
import { AtSign, Bell, CheckCheck, Images, MessageCircle, MessagesSquare, RefreshCw } from 'lucide-react';
import { useNavigate } from 'react-router';
import type { Notification, NotificationKind } from '../../protocol/types';
import { relativeTime } from '../../lib/dates';
import { cn } from '../../lib/cn';
import { newestNotifications, useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { PendingTrigger, useTriggerSwap } from '../lazyPart';
import { useLazyModule } from '../../lib/lazyModule';
import { menuLibrary } from '../ui/radixLibraries';

const icons: Record<NotificationKind, typeof Bell> = {
  new_photos: Images,
  comment: MessageCircle,
  reply: MessagesSquare,
  mention: AtSign,
  status_change: RefreshCw,
};

/** "9+" past nine, as badges do. */
export function unreadBadge(count: number): string {
  return count > 9 ? '9+' : String(count);
}

function NotificationItem({
  DropdownMenu,
  notification,
  now,
  onOpen,
}: {
  DropdownMenu: typeof Radix;
  notification: Notification;
  now: number;
  onOpen: () => void;
}) {
  const Icon = icons[notification.kind] ?? Bell;
  const unread = notification.readAt === null;
  return (
    <DropdownMenu.Item
      onSelect={onOpen}
      data-testid="notification"
      data-unread={unread || undefined}
      className={cn(
        'flex cursor-pointer gap-3 rounded-lg px-3 py-2.5 outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800',
        unread && 'bg-amber-50/70 dark:bg-amber-400/5',
      )}
    >
      <span
        className={cn(
          'mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full',
          unread ? 'bg-amber-100 text-amber-700 dark:bg-amber-400/15 dark:text-amber-300' : 'bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400',
        )}
        aria-hidden="true"
      >
        <Icon className="size-4" />
      </span>
      <span className="min-w-0 flex-1">
        <span className={cn('block text-sm leading-snug text-slate-800 dark:text-slate-100', unread && 'font-semibold')}>{notification.title}</span>
        {notification.body && <span className="mt-0.5 line-clamp-2 block text-xs text-slate-500 dark:text-slate-400">{notification.body}</span>}
        <span className="mt-1 block text-xs text-slate-400 dark:text-slate-500">{relativeTime(notification.createdAt, now)}</span>
      </span>
      {unread && <span className="mt-2 size-2 shrink-0 rounded-full bg-amber-500" aria-label="Unread" />}
    </DropdownMenu.Item>
  );
}

/**
 * The bell in the header: the unread count, live, and the notification centre —
 * newest first, paged, each leading to its place (a photo opens the lightbox on it).
 * Read state follows the user across tabs and devices.
 */
export function NotificationBell() {
  const held = useAppStore((s) => s.notifications);
  const unread = useAppStore((s) => s.unreadNotifications);
  const hasMore = useAppStore((s) => s.notificationsHaveMore);
  const loaded = useAppStore((s) => s.notificationsLoaded);
  const epoch = useAppStore((s) => s.liveEpoch);
  const [open, setOpen] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const navigate = useNavigate();
  const list = useMemo(() => newestNotifications(held), [held]);

  // Every (re)connect: the newest page and the unread count, fresh.
  useEffect(() => {
    if (epoch === 0) return;
    commands.listNotifications().catch(() => undefined);
  }, [epoch]);

  const openOne = (n: Notification) => {
    void commands.markNotificationRead(n).catch(() => undefined);
    navigate(n.link);
  };
  const more = async () => {
    const oldest = list.at(-1);
    if (!oldest) return;
    setLoadingMore(true);
    await commands.listNotifications(oldest.createdAt).catch(() => undefined);
    setLoadingMore(false);
  };

  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  const DropdownMenu = useLazyModule(menuLibrary, { what: 'Notifications', wanted: open, onFailed: () => setOpen(false) });
  const { pendingRef, ref } = useTriggerSwap(DropdownMenu !== null);
  const trigger = {
    'aria-label': label,
    'data-testid': 'notification-bell',
    className:
      'relative inline-flex size-10 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
    children: (
      <>
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            data-testid="notification-count"
            aria-hidden="true"
            className="absolute top-1 right-1 inline-flex min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-4.5 font-bold text-white ring-2 ring-white dark:ring-slate-950"
          >
            {unreadBadge(unread)}
          </span>
        )}
      </>
    ),
  };
  const openMenu = (next: boolean) => {
    setOpen(next);
    if (next) setNow(Date.now());
  };
  if (!DropdownMenu) return <PendingTrigger popup="menu" pendingRef={pendingRef} onPress={() => openMenu(true)} {...trigger} />;

  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={openMenu}>
      <DropdownMenu.Trigger ref={ref} {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-label="Notifications"
          className="z-50 flex max-h-[min(32rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-xl border border-slate-200 bg-white shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3 dark:border-slate-800">
            <p className="text-sm font-semibold text-slate-900 dark:text-white">Notifications</p>
            {unread > 0 && (
              <button
                type="button"
                onClick={() => void commands.markAllNotificationsRead().catch(() => undefined)}
                className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                <CheckCheck className="size-3.5" aria-hidden="true" />
                Mark all as read
              </button>
            )}
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto p-1.5">
            {!loaded ? (
              <p className="px-3 py-8 text-center text-sm text-slate-500">Loading…</p>
            ) : list.length === 0 ? (
              <div className="px-3 py-10 text-center">
                <Bell className="mx-auto size-7 text-slate-300 dark:text-slate-600" aria-hidden="true" />
                <p className="mt-2 text-sm font-medium text-slate-700 dark:text-slate-200">You're all caught up</p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">New photos, comments and status changes on your projects show up here.</p>
              </div>
            ) : (
              list.map((n) => <NotificationItem key={n.id} DropdownMenu={DropdownMenu} notification={n} now={now} onOpen={() => openOne(n)} />)
            )}
            {hasMore && (
              <DropdownMenu.Item
                onSelect={(e) => {
                  e.preventDefault();
                  void more();
                }}
                className="mt-1 flex cursor-pointer justify-center rounded-lg px-3 py-2 text-sm font-medium text-slate-600 outline-none data-[highlighted]:bg-slate-100 dark:text-slate-300 dark:data-[highlighted]:bg-slate-800"
              >
                {loadingMore ? 'Loading…' : 'Show older'}
              </DropdownMenu.Item>
            )}
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
