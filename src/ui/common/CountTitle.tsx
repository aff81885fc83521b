// A card title with a count badge beside it ("Peers 4"), as the lists and tables show their size.
export function CountTitle({ label, count, testId }: { label: string; count: number; testId?: string }) {
  return (
    <>
      {label}{' '}
      <span className="count" data-testid={testId}>
        {count}
      </span>
    </>
  )
}
