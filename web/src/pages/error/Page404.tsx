import ErrorPage from './ErrorPage';

export default function Page404() {
  return <ErrorPage status="404" />;
}
