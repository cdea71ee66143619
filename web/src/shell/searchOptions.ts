/** Fuse options of the header route search (docs/product.md#route-search): title 0.7, path 0.3, threshold 0.4. */
export const SEARCH_OPTIONS = {
  shouldSort: true,
  threshold: 0.4,
  location: 0,
  distance: 100,
  minMatchCharLength: 1,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
};
