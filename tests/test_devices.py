"""Discovery: simulated specs, machine files, CUDA_VISIBLE_DEVICES, NVML states."""

import types

import pytest

from devtrace.devices import discovery, nvml, simulated, visibility
from devtrace.errors import UsageError

from conftest import machine

GiB, MiB = 1 << 30, 1 << 20


def test_simulate_count_gives_default_gpus():
    gpus = simulated.parse_simulate("4")
    assert [g.index for g in gpus] == [0, 1, 2, 3]
    assert {g.memory_total for g in gpus} == {16 * GiB}
    assert {g.compute_capability for g in gpus} == {(8, 0)}
    assert len({g.uuid for g in gpus}) == 4


def test_simulate_models_and_sizes():
    gpus = simulated.parse_simulate("2xH100,4xK20m:5GiB")
    assert [g.name for g in gpus] == ["NVIDIA H100 80GB HBM3"] * 2 + ["Tesla K20m"] * 4
    assert gpus[0].compute_capability == (9, 0) and gpus[0].multiprocessor_count == 132
    assert gpus[2].memory_total == 5 * GiB


@pytest.mark.parametrize("spec, message", [
    ("", "--simulate: empty spec; expected e.g. '4', '2xH100' or '4xK20m:5GiB'"),
    ("2xQuantum", "--simulate: unknown GPU model 'Quantum'; known models: K20m, K40c"),
    ("2xH100:lots", "--simulate: bad memory size 'lots' in '2xH100:lots'; expected e.g. 5GiB or 512MiB"),
    ("0", "--simulate: GPU count must be between 1 and 64, got 0 in '0'"),
    ("4x", "--simulate: cannot parse '4x'"),
])
def test_simulate_errors(spec, message):
    with pytest.raises(UsageError) as info:
        simulated.parse_simulate(spec)
    assert str(info.value).startswith(message)


def test_fixture_machines_reproduce_the_seeds():
    k40 = simulated.load_machine(machine("k40c-x1.toml"))
    assert [(g.name, g.pci_bus_id, g.compute_capability) for g in k40] == [("Tesla K40c", "0000:05:00.0", (3, 5))]
    k20 = simulated.load_machine(machine("k20m-x4.toml"))
    assert [g.pci_bus_id for g in k20] == ["0000:02:00.0", "0000:03:00.0", "0000:83:00.0", "0000:84:00.0"]
    assert {g.name for g in k20} == {"Tesla K20m"}
    h100 = simulated.load_machine(machine("h100-x8.toml"))
    assert len(h100) == 8


@pytest.mark.parametrize("body, message", [
    ('[[gpu]]\nname = "X"\ncompute_capability = "8.0"\n', "gpu[0]: missing field 'memory_total'"),
    ('[[gpu]]\nname = "X"\nmemory_total = "16GiB"\ncompute_capability = 8\n',
     "gpu[0]: field 'compute_capability' must be \"MAJOR.MINOR\" like \"8.0\", got 8"),
    ('[[gpu]]\nname = "X"\nmemory_total = "lots"\ncompute_capability = "8.0"\n',
     "gpu[0]: field 'memory_total' must be a size like \"16GiB\" or an integer number of MiB, got 'lots'"),
    ('[[gpu]]\nname = "X"\nmemory_total = "16GiB"\ncompute_capability = "8.0"\nmemroy_used = 3\n',
     "gpu[0]: unknown field 'memroy_used'"),
    ('[[gpu]]\nname = "X"\nmemory_total = "16GiB"\ncompute_capability = "8.0"\npci_bus_id = "5"\n',
     "gpu[0]: field 'pci_bus_id' must be a PCI bus id like \"0000:05:00.0\", got '5'"),
    ("[[gpu]\n", "not valid TOML"),
])
def test_machine_file_errors_name_the_field(tmp_path, body, message):
    path = tmp_path / "m.toml"
    path.write_text(body)
    with pytest.raises(UsageError) as info:
        simulated.load_machine(str(path))
    assert str(info.value).startswith(f"{path}: {message}")


def test_missing_machine_file():
    with pytest.raises(UsageError, match="machine file not found: /nope.toml"):
        simulated.load_machine("/nope.toml")


@pytest.mark.parametrize("value, expected", [
    (None, [0, 1, 2, 3]), ("", []), ("-1", []), ("2,0", [2, 0]), ("0,2,-1,1", [0, 2]),
    ("1,7,2", [1]), ("0,0", []), (" 3 ", [3]),
])
def test_cuda_visible_devices(value, expected):
    gpus = simulated.parse_simulate("4")
    assert [g.index for g in visibility.apply_visible_devices(gpus, value)] == expected


def test_cuda_visible_devices_by_uuid_prefix():
    gpus = simulated.parse_simulate("4")
    prefix = gpus[2].uuid[:12]
    assert [g.index for g in visibility.apply_visible_devices(gpus, f"{prefix},0")] == [2, 0]
    assert visibility.apply_visible_devices(gpus, "GPU-zzzz") == []


def test_cuda_visible_devices_garbage_is_a_usage_error():
    with pytest.raises(UsageError, match="CUDA_VISIBLE_DEVICES='abc': entry 'abc' is neither a device index"):
        visibility.apply_visible_devices(simulated.parse_simulate("2"), "abc")


def test_cuda_device_order():
    gpus = simulated.parse_simulate("1xT4,1xH100")  # T4 has the lower bus id
    assert [g.name for g in visibility.order_devices(gpus, "PCI_BUS_ID")] == ["Tesla T4", "NVIDIA H100 80GB HBM3"]
    assert [g.name for g in visibility.order_devices(gpus, None)] == ["NVIDIA H100 80GB HBM3", "Tesla T4"]
    with pytest.raises(UsageError, match="CUDA_DEVICE_ORDER='SLOWEST' is not valid"):
        visibility.order_devices(gpus, "SLOWEST")


def test_discover_reads_env_and_applies_visibility():
    m = discovery.discover(env={"DEVTRACE_SIMULATE": "4", "CUDA_VISIBLE_DEVICES": "2,0"})
    assert m.backend == "simulated"
    assert [g.index for g in m.gpus] == [2, 0]
    assert len(m.all_gpus) == 4


def test_discover_without_driver_is_cpu_only(monkeypatch):
    monkeypatch.setattr(nvml, "has_driver_nodes", lambda: False)
    m = discovery.discover(env={})
    assert m.backend == "cpu" and m.gpus == ()
    assert m.note == "no NVIDIA driver found (no /dev/nvidiactl): CPU only; simulate GPUs with --simulate 2 (or DEVTRACE_SIMULATE=2)"


class FakeNVMLError(Exception):
    pass


def fake_nvml(gpus=(), init_error=None):
    """A stand-in for the pynvml module with the calls devtrace makes."""
    m = types.SimpleNamespace()
    m.NVMLError = FakeNVMLError
    m.NVMLError_LibraryNotFound = type("NVMLError_LibraryNotFound", (FakeNVMLError,), {})
    m.NVMLError_DriverNotLoaded = type("NVMLError_DriverNotLoaded", (FakeNVMLError,), {})
    m.NVMLError_NoPermission = type("NVMLError_NoPermission", (FakeNVMLError,), {})
    m.NVMLError_LibRmVersionMismatch = type("NVMLError_LibRmVersionMismatch", (FakeNVMLError,), {})

    def init():
        if init_error:
            raise getattr(m, init_error)("failed")
    m.nvmlInit = init
    m.nvmlShutdown = lambda: None
    m.nvmlSystemGetDriverVersion = lambda: "550.54.15"
    m.nvmlDeviceGetCount = lambda: len(gpus)
    m.nvmlDeviceGetHandleByIndex = lambda i: gpus[i]
    m.nvmlDeviceGetMemoryInfo = lambda h: types.SimpleNamespace(total=h["total"], used=h["used"], free=h["total"] - h["used"])
    m.nvmlDeviceGetCudaComputeCapability = lambda h: h["cc"]
    m.nvmlDeviceGetName = lambda h: h["name"].encode()
    m.nvmlDeviceGetUUID = lambda h: h["uuid"]
    m.nvmlDeviceGetPciInfo = lambda h: types.SimpleNamespace(busId=h["bus"].encode())
    m.nvmlDeviceGetNumGpuCores = lambda h: 16896
    return m


def test_nvml_probe_reads_every_field():
    gpu = {"name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-1234", "bus": "00000000:18:00.0",
           "total": 80 * GiB, "used": 500 * MiB, "cc": (9, 0)}
    gpus, note = nvml.probe(fake_nvml([gpu]))
    assert note is None
    (g,) = gpus
    assert (g.name, g.uuid, g.pci_bus_id, g.memory_free, g.compute_capability, g.driver_version, g.backend) == (
        "NVIDIA H100 80GB HBM3", "GPU-1234", "0000:18:00.0", 80 * GiB - 500 * MiB, (9, 0), "550.54.15", "nvml")
    assert g.multiprocessor_count == 132


@pytest.mark.parametrize("error, reason", [
    ("NVMLError_LibraryNotFound", "the NVML library (libnvidia-ml.so.1) was not found"),
    ("NVMLError_DriverNotLoaded", "the NVIDIA driver is installed but not loaded"),
    ("NVMLError_NoPermission", "no permission to talk to the NVIDIA driver"),
    ("NVMLError_LibRmVersionMismatch", "the NVIDIA driver and library versions do not match"),
])
def test_nvml_failures_are_states(error, reason):
    gpus, note = nvml.probe(fake_nvml(init_error=error))
    assert gpus == []
    assert note.startswith(reason) and note.endswith("CPU only; simulate GPUs with --simulate 2 (or DEVTRACE_SIMULATE=2)")


def test_nvml_backend_flows_through_discovery():
    gpu = {"name": "Tesla T4", "uuid": "GPU-aa", "bus": "00000000:05:00.0", "total": 16 * GiB, "used": 0, "cc": (7, 5)}
    m = discovery.discover(env={}, nvml_module=fake_nvml([gpu, dict(gpu, uuid="GPU-bb", bus="00000000:06:00.0")]))
    assert m.backend == "nvml" and len(m.gpus) == 2
