import '@noted/ui/styles.css';
import './styles.css';

// Async boundary: the Module Federation runtime negotiates the shared react/react-dom
// singletons before any module that imports them is evaluated.
void import('./bootstrap');
