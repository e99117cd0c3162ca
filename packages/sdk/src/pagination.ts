export interface PageOf<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Walks a cursor-paginated list, one page request at a time, as the consumer iterates. */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<PageOf<T>>): AsyncIterable<T> {
  let cursor: string | undefined;
  while (true) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}
