import { useSyncExternalStore } from 'react';
import { useShellApp } from '../context';
import {
  BookOpenIcon,
  ChatIcon,
  FeedbackIcon,
  FileTextIcon,
  ListTodoIcon,
  NetworkIcon,
  NewspaperIcon,
  RepeatIcon,
  ScrollTextIcon,
  type IconComponent,
} from '@noted/ui';

export interface NavItem {
  to: string;
  icon: IconComponent;
  /** Key in the sidebar message set. */
  label: string;
  /** Whether a path belongs to this item, for aria-current. */
  owns: (pathname: string) => boolean;
}

const exactly = (path: string) => (pathname: string) => pathname === path;

/** The app's places: the notes and what is made of them. */
export const primaryNav: NavItem[] = [
  {
    to: '/',
    icon: FileTextIcon,
    label: 'notes',
    owns: (path) => path === '/' || /^\/notes\/(?!s\/)/.test(path),
  },
  { to: '/todos', icon: ListTodoIcon, label: 'todos', owns: exactly('/todos') },
  { to: '/review', icon: RepeatIcon, label: 'review', owns: exactly('/review') },
  { to: '/mindlink', icon: NetworkIcon, label: 'mindlink', owns: exactly('/mindlink') },
  {
    to: '/chat',
    icon: ChatIcon,
    label: 'chat',
    owns: (path) => path === '/chat' || path.startsWith('/chat/'),
  },
  { to: '/summaries', icon: ScrollTextIcon, label: 'summaries', owns: exactly('/summaries') },
];

/** About Noted: the guide, the blog and a way to tell us something. */
export const secondaryNav: NavItem[] = [
  { to: '/guide', icon: BookOpenIcon, label: 'guide', owns: exactly('/guide') },
  { to: '/blog', icon: NewspaperIcon, label: 'blog', owns: (path) => path.startsWith('/blog') },
  { to: '/feedback', icon: FeedbackIcon, label: 'feedback', owns: exactly('/feedback') },
];

/** The phone's tab bar: the four places used most, around the New note button. */
export const tabBarNav: NavItem[] = primaryNav.filter((item) =>
  ['/', '/todos', '/review', '/chat'].includes(item.to),
);

/** Where "New note" leads: the list, with its composer focused. */
export const newNoteTarget = { pathname: '/', state: { compose: true } } as const;

/** The badges remotes put on entries of the navigation, by path. */
export const useNavBadges = (): Readonly<Record<string, string>> => {
  const { state } = useShellApp();
  return useSyncExternalStore(state.navBadges.subscribe, state.navBadges.get);
};
