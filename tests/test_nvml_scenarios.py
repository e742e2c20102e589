"""Discovery against NVML scenarios (tests/fake_nvml.py): it degrades per device, lists MIG
instances, counts SMs exactly, orders as CUDA does, and says why in NVML's terms."""

import pytest

from devtrace.devices import discovery, nvml
from devtrace.errors import UsageError

from fake_nvml import scenario


def test_a_lost_gpu_is_unavailable_and_the_others_stay_usable():
    m = discovery.discover(env={}, nvml_module=scenario("lost"))
    assert m.backend == "nvml" and [g.index for g in m.all_gpus] == [0, 2] and m.note is None
    assert m.unavailable == ((1, "the GPU is lost (fell off the bus; NVML: GPU is lost)"),)


def test_mig_instances_are_listed_and_a_mig_uuid_selects_one():
    m = discovery.discover(env={}, nvml_module=scenario("mig"))
    assert [(g.name, g.uuid[:12], g.memory_total >> 30, g.multiprocessor_count) for g in m.all_gpus] == [
        ("NVIDIA A100-SXM4-80GB MIG 3g.40gb", "MIG-aaaaaaaa", 40, 42),
        ("NVIDIA A100-SXM4-80GB MIG 1g.10gb", "MIG-bbbbbbbb", 10, 14),
        ("NVIDIA A100-SXM4-80GB", "GPU-00000001", 80, 108)]
    m = discovery.discover(env={"CUDA_VISIBLE_DEVICES": "MIG-bbbbbbbb-1111-2222-3333-444444444444"},
                           nvml_module=scenario("mig"))
    assert [g.name for g in m.gpus] == ["NVIDIA A100-SXM4-80GB MIG 1g.10gb"] and m.note is None
    m = discovery.discover(env={"CUDA_VISIBLE_DEVICES": "MIG-aaaa"}, nvml_module=scenario("mig"))
    assert [g.uuid[:12] for g in m.gpus] == ["MIG-aaaaaaaa"]  # a unique prefix


def test_exact_sm_counts_and_cuda_orders():
    m = discovery.discover(env={"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}, nvml_module=scenario("mixed"))
    assert [(g.name, g.multiprocessor_count) for g in m.gpus] == [
        ("Tesla V100-SXM2-16GB", 80), ("NVIDIA H100 80GB HBM3", 132), ("NVIDIA A100-SXM4-80GB", 108)]
    m = discovery.discover(env={}, nvml_module=scenario("mixed"))  # FASTEST_FIRST: most SMs first
    assert [g.multiprocessor_count for g in m.gpus] == [132, 108, 80]
    m = discovery.discover(env={"CUDA_VISIBLE_DEVICES": "1"}, nvml_module=scenario("mixed"))
    assert [g.multiprocessor_count for g in m.gpus] == [108]  # index 1 of CUDA's order, not of NVML's


@pytest.mark.parametrize("name, reason", [
    ("no-library", "the NVML library (libnvidia-ml.so.1) was not found"),
    ("driver-mismatch", "the NVIDIA driver and library versions do not match"),
    ("driver-not-loaded", "the NVIDIA driver is installed but not loaded"),
    ("no-permission", "no permission to talk to the NVIDIA driver"),
    ("no-devices", "the NVIDIA driver reports no GPUs"),
])
def test_no_usable_gpu_says_why_in_nvmls_terms(name, reason):
    m = discovery.discover(env={}, nvml_module=scenario(name))
    assert m.backend == "cpu" and m.gpus == () and m.note.startswith(reason) and "CPU only" in m.note


def test_every_gpu_lost_is_a_reason_too():
    from fake_nvml import Handle, fake_nvml

    m = discovery.discover(env={}, nvml_module=fake_nvml([Handle("A100", 0, lost=True)]))
    assert m.backend == "cpu" and m.note.startswith("no usable GPU (GPU 0: the GPU is lost")


def test_devtrace_nvml_forces_the_probe_off_or_on(monkeypatch):
    asked = []
    monkeypatch.setattr(nvml, "has_driver_nodes", lambda: False)
    monkeypatch.setattr(nvml, "probe_devices", lambda module=None, force=False: asked.append(force) or ([], [], "x"))
    m = discovery.discover(env={"DEVTRACE_NVML": "0"})
    assert asked == [] and m.note.startswith("DEVTRACE_NVML=0: NVML not asked, CPU only")
    discovery.discover(env={"DEVTRACE_NVML": "1"})
    assert asked == [True]
    with pytest.raises(UsageError, match="DEVTRACE_NVML=yes: expected 0"):
        discovery.discover(env={"DEVTRACE_NVML": "yes"})


def test_wsl2_exposes_dev_dxg_and_passes_the_preflight(monkeypatch):
    monkeypatch.setattr(nvml.os.path, "exists", lambda p: p == "/dev/dxg")
    assert nvml.has_driver_nodes()
