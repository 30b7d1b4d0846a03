"""Per-project issued, retired and cancelled totals as OffsetsDB's own code computes them.

Runs carbonplan/offsets-db-data's credit processing (process_vcs_credits, process_apx_credits + merge_with_arb,
process_gld_credits, process_cercarbono_credits, process_isometric_credits, process_arb) over the raw files in
data/catalogue/raw/offsets-db-data and sums each project's credits by transaction type, as its
add_retired_and_issued_totals does. Beneficiary harmonisation (OpenRefine) is off: it changes no quantity.

The package needs pandas_flavor, pyjanitor, pandera, universal_pathlib and pandas >= 2, which Debian does not
package; the few calls it makes of them are stood in for below (registering DataFrame methods, schema columns
for add_missing_columns, to_datetime with format='mixed', Series.dt.as_unit). None of them touches a quantity.

Re-run: scripts/offsetsdb/README.md. In short, with CHECKOUT a checkout of offsets-db-data at commit
cdfd8f7723862522e37856074e1c50cdc669f26c:
  python3 scripts/offsetsdb/totals.py CHECKOUT data/catalogue/raw/offsets-db-data \
    test/fixtures/offsetsdb-totals.json
"""

import json
import pathlib
import sys
import types

import numpy as np
import pandas as pd

CHECKOUT, RAW = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])  # the third: the JSON file to write
COMMIT = 'cdfd8f7723862522e37856074e1c50cdc669f26c'


def stand_ins() -> None:
    flavor = types.ModuleType('pandas_flavor')

    def register_dataframe_method(method):
        setattr(pd.DataFrame, method.__name__, method)
        return method

    flavor.register_dataframe_method = register_dataframe_method
    sys.modules['pandas_flavor'] = flavor

    janitor = types.ModuleType('janitor')

    def to_datetime(df, column, **kwargs):
        if kwargs.get('format') == 'mixed':
            kwargs.pop('format')
        df[column] = pd.to_datetime(df[column], **kwargs)
        return df

    pd.DataFrame.to_datetime = to_datetime
    sys.modules['janitor'] = janitor

    pandera = types.ModuleType('pandera')
    pandera_pandas = types.ModuleType('pandera.pandas')

    class Column:
        def __init__(self, dtype=None, *checks, **kwargs):
            # As pandera's DataType: `.type` is the numpy dtype (add_missing_columns picks its default by it).
            try:
                self.dtype = types.SimpleNamespace(type=np.dtype(dtype if dtype is not None else 'O'))
            except TypeError:
                self.dtype = types.SimpleNamespace(type=np.dtype('<M8[ns]'))

    class Schema:
        def __init__(self, columns, **kwargs):
            self.columns = columns

        def validate(self, df):
            return df

        def add_columns(self, columns):
            return Schema({**self.columns, **columns})

    class Check:
        def __getattr__(self, name):
            return lambda *a, **k: None

    pandera_pandas.DataFrameSchema = Schema
    pandera_pandas.Column = Column
    pandera_pandas.Check = Check()
    for name, dtype in [('Object', 'O'), ('String', 'O'), ('Float64', 'float64'), ('Int', 'int64'),
                        ('Int64', 'int64'), ('Int32', 'int32'), ('Bool', 'bool'), ('DateTime', '<M8[ns]'),
                        ('Timestamp', '<M8[ns]')]:
        setattr(pandera_pandas, name, dtype)
    pandera_pandas.DateTime = '<M8[ns]'
    pandera.pandas = pandera_pandas
    sys.modules['pandera'] = pandera
    sys.modules['pandera.pandas'] = pandera_pandas

    upath = types.ModuleType('upath')
    upath.UPath = pathlib.Path
    sys.modules['upath'] = upath
    for name in ('country_converter', 'intake', 'fsspec', 'requests', 'typer', 'rich', 'rich.console'):
        sys.modules.setdefault(name, types.ModuleType(name))

    from pandas.core.indexes.accessors import DatetimeProperties
    DatetimeProperties.as_unit = lambda self, unit: self._parent
    # pandas 1.5 has no format='ISO8601' (pandas 2): ISO dates parse without a format.
    original = pd.to_datetime

    def to_datetime_compatible(arg, *args, **kwargs):
        if kwargs.get('format') in ('ISO8601', 'mixed'):
            kwargs.pop('format')
        return original(arg, *args, **kwargs)

    pd.to_datetime = to_datetime_compatible


stand_ins()
sys.path.insert(0, str(CHECKOUT))
from offsets_db_data.apx import process_apx_credits  # noqa: E402,F401
from offsets_db_data.arb import process_arb  # noqa: E402
from offsets_db_data.cercarbono import process_cercarbono_credits  # noqa: E402,F401
from offsets_db_data.gld import process_gld_credits  # noqa: E402,F401
from offsets_db_data.isometric import process_isometric_credits  # noqa: E402,F401
from offsets_db_data.vcs import process_vcs_credits  # noqa: E402,F401


def read(registry: str, name: str) -> pd.DataFrame:
    return pd.read_csv(RAW / registry / f'{name}.csv')


arb = process_arb(read('arb', 'nc-arboc_issuance_sheet3'))
credits = {}
credits['verra'] = read('verra', 'transactions').process_vcs_credits(
    arb=arb[arb.project_id.str.startswith('VCS')], harmonize_beneficiary_info=False)
for registry, prefix in [('american-carbon-registry', 'ACR'), ('climate-action-reserve', 'CAR'), ('art-trees', 'ART')]:
    parts = [read(registry, kind).process_apx_credits(download_type=kind, registry_name=registry)
             for kind in ('issuances', 'retirements', 'cancellations')]
    credits[registry] = pd.concat(parts).merge_with_arb(arb=arb[arb.project_id.str.startswith(prefix)])
credits['gold-standard'] = pd.concat([read('gold-standard', kind).process_gld_credits(download_type=kind)
                                      for kind in ('issuances', 'retirements')])
credits['cercarbono'] = pd.concat([read('cercarbono', kind).process_cercarbono_credits(download_type=kind)
                                   for kind in ('issuances', 'retirements')])
iso_projects = read('isometric', 'projects')
codes = dict(zip(iso_projects['id'], iso_projects['short_code']))
credits['isometric'] = pd.concat([
    read('isometric', kind).process_isometric_credits(download_type=kind, prj_id_to_short_code=codes)
    for kind in ('issuances', 'retirements')])

TYPES = {'issuance': 'issued', 'retirement': 'retired', 'cancellation': 'cancelled'}
out = {'offsets_db_data_commit': COMMIT,
       'how': 'scripts/offsetsdb/totals.py: OffsetsDB credit processing over data/catalogue/raw/offsets-db-data; '
              'per project, the sum of quantity by transaction_type (as add_retired_and_issued_totals)',
       'registries': {}}
for registry, frame in credits.items():
    projects = {}
    for (project, kind), quantity in frame.groupby(['project_id', 'transaction_type'])['quantity'].sum().items():
        if kind not in TYPES:
            continue
        entry = projects.setdefault(project, {'issued': 0, 'retired': 0, 'cancelled': 0})
        entry[TYPES[kind]] = round(float(quantity), 6)
    out['registries'][registry] = dict(sorted(projects.items()))
with open(sys.argv[3], 'w') as file:
    json.dump(out, file, indent=1)
    file.write('\n')
