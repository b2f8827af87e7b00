// The client benchmark's floors for "JS to a list" and "500 rows: response to paint": the panel's grid
// (@mui/x-data-grid, the same version, with React and MUI under it) alone, with the Platforms list's five columns as
// plain text and nothing else on the page. "Next page" sets the next 500 rows a macrotask after the click, as a
// response would arrive; the page notes when, so the bench measures from there to the frame that shows them, as it
// does for the panel from the response's last byte.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';

const PAGE = 500;

/** Rows shaped as the seeded platforms: the first page holds platform-00001..00500, the second 00501..01000. */
const rowsOf = (page: number) =>
  Array.from({ length: PAGE }, (_, i) => {
    const n = page * PAGE + i + 1;
    return { id: n, name: `platform-${String(n).padStart(5, '0')}`, maxVersion: `${(n % 99) + 1}.${n % 7}.${n % 13}`, createdAt: '27.11.2026, 10:00:00', updatedAt: '27.11.2026, 10:00:00' };
  });

const columns: GridColDef[] = [
  { field: 'id', headerName: 'id', width: 80 },
  { field: 'name', headerName: 'Name', flex: 1 },
  { field: 'maxVersion', headerName: 'Max version', flex: 1 },
  { field: 'createdAt', headerName: 'Created', flex: 1 },
  { field: 'updatedAt', headerName: 'Updated', flex: 1 },
];

declare global {
  interface Window {
    /** performance.now() just before the next page's rows were handed to the grid. */
    rowsSetAt?: number;
  }
}

function GridAlone() {
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState(() => rowsOf(0));
  const next = () => {
    const target = page + 1;
    setPage(target);
    setTimeout(() => {
      window.rowsSetAt = performance.now();
      setRows(rowsOf(target));
    });
  };
  return (
    <div style={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <button type="button" onClick={next}>
        Go to next page
      </button>
      <div style={{ flex: 1, minHeight: 0 }}>
        <DataGrid rows={rows} columns={columns} hideFooter disableRowSelectionOnClick />
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(<GridAlone />);
